import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import {checkFork} from '../adapters/agent-session/recording.js'
import {HanzoCommand} from '../cli/base-command.js'
import {forkSessionFlag} from '../cli/fork-flag.js'
import {toolsFlag} from '../cli/tools-flag.js'
import {SESSION_PERMISSION_MODES, type SessionPermissionMode} from '../core/permissions/policy.js'
import {UserError} from '../core/errors.js'
import {parseToolScope} from '../core/tools/scope.js'

export default class Chat extends HanzoCommand {
  static description = `The interactive session: a prompt at the bottom, the conversation above it.

Running hanzo-dev with no command on a terminal starts it too. Type a task and press Enter; \\ then Enter (or Alt+Enter, Ctrl-J) adds a line, Up and Down recall earlier prompts of this project. The agent reads and edits files and runs commands under the permission rules; a call the rules leave open is asked about in place, with the diff of an edit: y allows it once, a for the session, n denies it (with a reason the model is told). Esc interrupts a running turn; Ctrl-C twice or Ctrl-D on an empty prompt exits. /help lists the slash commands; the input_mode setting (or /vim) turns on vim key bindings.

Every conversation is saved as a session, like hanzo-dev run's: --continue carries on this project's latest, --resume ID any other; with --fork-session, in a new session from a copy of its conversation (/fork does the same in the chat).`

  static examples = [
    '<%= config.bin %>',
    '<%= config.bin %> chat "explain the layout of this repository"',
    '<%= config.bin %> chat --continue',
    '<%= config.bin %> chat --permission-mode allow-reads --model gpt-5-mini',
  ]

  static enableJsonFlag = false

  static args = {
    prompt: Args.string({description: 'A first prompt, sent as soon as the session starts.'}),
  }

  static flags = {
    model: Flags.string({description: 'Model id (default: the `model` setting).'}),
    'base-url': Flags.string({description: 'An OpenAI-compatible /v1 base URL (Ollama, vLLM, LM Studio, ...).'}),
    continue: Flags.boolean({
      char: 'c',
      description: 'Carry on the latest session of this project.',
      exclusive: ['resume'],
    }),
    resume: Flags.string({
      char: 'r',
      description: 'Carry on a saved session: its id, or the start of it.',
      exclusive: ['continue'],
      helpValue: 'ID',
    }),
    'fork-session': forkSessionFlag,
    'permission-mode': Flags.option({
      default: 'prompt',
      description:
        'prompt: ask; allow-reads: read-only tools run without asking; deny: never ask; allow-all: run everything not denied.',
      options: SESSION_PERMISSION_MODES,
    })(),
    tools: toolsFlag,
    'fake-model': Flags.string({description: 'Replay a scripted model (tests, demos).', hidden: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Chat)
    const session = {continue: flags.continue, fork: flags['fork-session'], resume: flags.resume}
    checkFork(session)
    if (!process.stdin.isTTY || !process.stdout.isTTY) {
      throw new UserError('The interactive session needs a terminal (stdin and stdout)', {
        exitCode: 2,
        hint: 'off a terminal use hanzo-dev run "TASK" (it reads - from stdin)',
      })
    }

    const loaded = await this.settings()
    // The UI is loaded only here: no other command pays for it.
    const {startChat} = await import('../ui/start-chat.js')
    await startChat({
      baseURL: flags['base-url'],
      cliConfig: this.config,
      dataDir: this.paths.dataDir,
      fakeModel: flags['fake-model'],
      firstPrompt: args.prompt,
      loaded,
      model: flags.model,
      permissionMode: flags['permission-mode'] as SessionPermissionMode,
      session,
      ...(flags.tools === undefined ? {} : {tools: parseToolScope(flags.tools)}),
    })
  }
}
