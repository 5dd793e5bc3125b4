import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {checkpointSettings} from '../../adapters/checkpoints/open.js'
import {describePlan} from '../../adapters/checkpoints/describe.js'
import {applyRewind, planRewind} from '../../adapters/checkpoints/rewind.js'
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
