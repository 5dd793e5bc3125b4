import * as Args from '@oclif/core/args'

import {loadPrices} from '../../adapters/prices.js'
import {SessionStore} from '../../adapters/session-store.js'
import {HanzoCommand} from '../../cli/base-command.js'
import type {SkippedLine} from '../../core/sessions/parse.js'
import {renderSession} from '../../core/sessions/render.js'
import {requestsByRun, type SessionSummary, summarize} from '../../core/sessions/summary.js'
import type {TranscriptLine} from '../../core/sessions/transcript.js'
import {turnUsage} from '../../core/sessions/usage.js'

type ShownSession = SessionSummary & {
  path: string
  updated_at: string
  usage: {by_turn: unknown[]}
  skipped: SkippedLine[]
  transcript: TranscriptLine[]
}

export default class SessionsShow extends HanzoCommand {
  static description = `Show a saved session: its project, model, runs and usage, then the conversation.

Usage counts tokens in and out for every model request, side ones too (a commit message, /compact); the cost shows when the models have a price (at today's prices): the model catalog's, or the pricing setting's (USD per million tokens), which overrides it. --json gives the summary, the usage of each request (by_turn, with its run) and the whole transcript, one object per line of the file (see docs/run-output.md, "Sessions").`

  static examples = [
    '<%= config.bin %> sessions show 2b6c1f3a',
    '<%= config.bin %> sessions show 2b6c1f3a-8d1e-4c55-9f0a-6f1d2e3c4b5a --json | jq .usage',
  ]

  static args = {
    id: Args.string({description: 'The session id, or the start of it (sessions list shows them).', required: true}),
  }

  async run(): Promise<ShownSession> {
    const {args} = await this.parse(SessionsShow)
    const {config} = await this.settings()
    const store = SessionStore.at(this.paths.dataDir)
    const stored = await store.find(args.id)
    const transcript = await store.read(stored.path)
    const prices = await loadPrices(config.pricing)
    const summary = summarize(transcript, prices)
    for (const line of renderSession(summary, transcript)) this.log(line)
    return {
      ...summary,
      path: stored.path,
      skipped: transcript.skipped,
      transcript: [transcript.header, ...transcript.lines],
      updated_at: stored.modified.toISOString(),
      usage: {...summary.usage, by_turn: turnUsage(requestsByRun(transcript.lines), prices)},
    }
  }
}
