import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {applyRewind, planRewind, type RewindPlan} from '../../adapters/checkpoints/rewind.js'
import {checkpointSettings} from '../../adapters/checkpoints/open.js'
import {CheckpointStore, type CodeDiff} from '../../adapters/checkpoints/store.js'
import {SessionStore} from '../../adapters/session-store.js'
import {HanzoCommand} from '../../cli/base-command.js'
import {confirm, isInteractive} from '../../cli/auth-terminal.js'
import {UserError} from '../../core/errors.js'

interface RewindResult {
  id: string
  to: number
  code: CodeDiff | null
  conversation: {messages_before: number; messages_now: number} | null
  status: 'rewound' | 'declined'
}

export default class SessionsRewind extends HanzoCommand {
  static description = `Take a session back to just before one of its prompts.

The files the agent changed since, the conversation, or both. Shows what would change first (files modified, created since (removed), deleted since (brought back)) and asks, unless --yes. Without a terminal it needs --yes. Only what the agent's tools changed is put back, as kept by checkpoints (the checkpoints setting): files .gitignore ignores or larger than checkpoints.max_file_bytes are not. The conversation is cut back by a line added to the transcript, so the session's cost stays counted; hanzo-dev run --resume ID carries on from there.`

  static examples = [
    '<%= config.bin %> sessions rewind 2b6c1f3a',
    '<%= config.bin %> sessions rewind 2b6c1f3a --to 1 --code --yes',
    '<%= config.bin %> sessions rewind 2b6c1f3a --to 2 --conversation --json --yes',
  ]

  static args = {
    id: Args.string({description: 'The session id, or the start of it (sessions list shows them).', required: true}),
  }

  static flags = {
    to: Flags.integer({
      description: 'Rewind to just before this prompt (1 is the first). Default: the last prompt.',
      min: 1,
    }),
    code: Flags.boolean({description: 'Only the files, not the conversation.', exclusive: ['conversation']}),
    conversation: Flags.boolean({description: 'Only the conversation, not the files.', exclusive: ['code']}),
    yes: Flags.boolean({char: 'y', description: 'Do it without asking.'}),
  }

  async run(): Promise<RewindResult> {
    const {args, flags} = await this.parse(SessionsRewind)
    const what = {code: !flags.conversation, conversation: !flags.code}
    const stores = {checkpoints: CheckpointStore.at(this.paths.dataDir), sessions: SessionStore.at(this.paths.dataDir)}
    const plan = await planRewind(stores, args.id, flags.to)
    const {maxFileBytes} = checkpointSettings((await this.settings()).config)
    const shown = describePlan(plan, what, maxFileBytes)
    const result = (status: RewindResult['status'], code: CodeDiff | null): RewindResult => ({
      code,
      conversation: what.conversation ? {messages_before: plan.messages.before, messages_now: plan.messages.now} : null,
      id: plan.session.id,
      status,
      to: plan.to,
    })
    if (!flags.json) for (const line of shown) this.log(line)
    if (!flags.yes) {
      if (!isInteractive() || flags.json)
        throw new UserError('Not rewound: confirming needs a terminal', {
          exitCode: 2,
          // The same rewind as asked for: only the files, or only the conversation, stays so.
          hint: `review the changes above, then run hanzo-dev sessions rewind ${plan.session.id} --to ${plan.to}${
            flags.code ? ' --code' : flags.conversation ? ' --conversation' : ''
          } --yes`,
        })
      if (!(await confirm(`Rewind session ${plan.session.id} to before prompt ${plan.to}?`))) {
        this.log('Nothing rewound.')
        process.exitCode = 1
        return result('declined', what.code ? plan.code : null)
      }
    }

    const done = await applyRewind(stores, plan, what, (message) => this.warn(message))
    this.log(`Rewound session ${plan.session.id} to before prompt ${plan.to}.`)
    return result('rewound', what.code ? done : null)
  }
}

/** The plan as lines: the prompt, then a stat of the files, then the conversation. */
function describePlan(plan: RewindPlan, what: {code: boolean; conversation: boolean}, maxFileBytes: number): string[] {
  const prompt = plan.prompts[plan.to - 1]
  const lines = [`Before prompt ${plan.to} of ${plan.prompts.length}: ${oneLine(prompt.text).slice(0, 100)}`]
  if (what.code) {
    const {created, deleted, modified} = plan.code
    const total = created.length + deleted.length + modified.length
    if (total === 0) lines.push('Files: nothing to change.')
    else {
      lines.push(`Files (${modified.length} restored, ${created.length} removed, ${deleted.length} brought back):`)
      for (const path of modified) lines.push(`  M ${oneLine(path)}`)
      for (const path of created) lines.push(`  D ${oneLine(path)}  (created since)`)
      for (const path of deleted) lines.push(`  A ${oneLine(path)}  (deleted since)`)
    }

    for (const path of plan.code.notKept)
      lines.push(`${oneLine(path)} changed but was over the size cap (${sizeCap(maxFileBytes)}): not restored`)
  }

  if (what.conversation)
    lines.push(`Conversation: ${plan.messages.now} messages now, ${plan.messages.before} after the rewind.`)
  return lines
}

/** The size cap as the setting's documentation gives it: whole MiB or KiB when it is one. */
function sizeCap(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}
