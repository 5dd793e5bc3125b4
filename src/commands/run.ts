import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'

import type {TodoItem} from '@hanzo-dev/sdk'

import {openAgentSession, subagentsOf} from '../adapters/agent-session/index.js'
import {loadPrices} from '../adapters/prices.js'
import {type SessionChoice, SessionStore} from '../adapters/session-store.js'
import {HanzoCommand} from '../cli/base-command.js'
import {forkSessionFlag} from '../cli/fork-flag.js'
import {toolsFlag} from '../cli/tools-flag.js'
import {type OutputFormat, RunOutput} from '../cli/run-output.js'
import {runTask} from '../cli/run-session.js'
import {readTask} from '../cli/run-task.js'
import {makeStyle} from '../adapters/style.js'
import {SESSION_PERMISSION_MODES, type SessionPermissionMode} from '../core/permissions/policy.js'
import {UserError} from '../core/errors.js'
import {lastPlan} from '../core/sessions/transcript.js'
import {parseToolScope} from '../core/tools/scope.js'

export default class Run extends HanzoCommand {
  static description = `Run the agent on one task, headless, and print its answer.

The agent reads and edits files in the current directory and runs commands, asking before anything the permission rules do not allow (off a terminal it denies instead and says how to allow it). The answer streams to stdout; tool activity goes to stderr.

Every run is saved as a session in your data dir ($XDG_DATA_HOME/hanzo-dev/sessions). --continue carries on the latest session of this project, --resume ID any session (hanzo-dev sessions list shows them): the model gets the conversation so far, and the run is added to the same session. With --fork-session the run starts a new session from a copy of that conversation instead, and the saved one is left as it is. The model and settings are today's, not the session's.

Output formats: text (default), json (one object at the end, with tokens and, when the model has a price, cost), stream-json (one JSON event per line as the run goes; see docs/run-output.md). --max-budget-usd stops the run before a model request once the session (earlier runs, subagents and side requests included) has cost that much, priced as the cost is shown (the model catalog, or your pricing setting); the session is saved and --continue carries it on.

Exit codes: 0 done, 1 error or stopped at --max-turns, 2 usage, 3 stopped at --max-budget-usd, 130 interrupted.`

  static examples = [
    '<%= config.bin %> run "fix the failing test in src/parser.ts"',
    'git diff | <%= config.bin %> run - --output-format json',
    '<%= config.bin %> run "summarize this repo" --base-url http://127.0.0.1:11434/v1 --model qwen3:8b',
    '<%= config.bin %> run "run the tests and fix what fails" --permission-mode allow-all --max-turns 40',
    '<%= config.bin %> run --continue "now add a test for it"',
    '<%= config.bin %> run --resume 2b6c1f3a "why did you change the parser?"',
    '<%= config.bin %> run --continue --fork-session "try it without the cache"',
    '<%= config.bin %> run "find where the config is parsed" --tools fs,exec',
    '<%= config.bin %> run "migrate the tests to vitest" --max-budget-usd 2.50',
  ]

  static enableJsonFlag = false

  static args = {
    prompt: Args.string({description: 'The task; - reads it from stdin.', required: true}),
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
    'max-budget-usd': Flags.string({
      description: 'Stop before a model request once the session has cost this many US dollars (exit code 3).',
      helpValue: '<usd>',
    }),
    'max-turns': Flags.integer({
      description: 'The most model requests this run may make (default: max_turns, else 25).',
      min: 1,
    }),
    'output-format': Flags.option({
      default: 'text',
      description: 'How to report.',
      options: ['text', 'json', 'stream-json'] as const,
    })(),
    'permission-mode': Flags.option({
      default: 'prompt',
      description:
        'prompt: ask (deny off a terminal); allow-reads: read-only tools run; deny: never ask; allow-all: run everything not denied.',
      options: SESSION_PERMISSION_MODES,
    })(),
    verbose: Flags.boolean({
      description: 'Show more of each tool result on stderr: output lines, the diff of an edit (text output).',
    }),
    tools: toolsFlag,
    'fake-model': Flags.string({description: 'Replay a scripted model (tests, demos).', hidden: true}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Run)
    const prompt = await readTask(args.prompt, process.stdin)
    if (!prompt.trim())
      throw new UserError('The task is empty', {exitCode: 2, hint: 'pass it as an argument, or with - on stdin'})
    const maxBudgetUsd = flags['max-budget-usd'] === undefined ? undefined : budgetUsd(flags['max-budget-usd'])
    const loaded = await this.settings()
    const format = flags['output-format'] as OutputFormat
    const warn = (message: string) => void this.warn(message)
    // Loaded while the session opens (plugins, servers): the catalog is tens of milliseconds of loading.
    const prices = loadPrices(loaded.config.pricing)
    const session = await openAgentSession({
      baseURL: flags['base-url'],
      cliConfig: this.config,
      cwd: process.cwd(),
      env: process.env,
      fakeModel: flags['fake-model'],
      maxTurns: flags['max-turns'],
      ...(maxBudgetUsd === undefined ? {} : {maxBudgetUsd}),
      model: flags.model,
      permissionMode: flags['permission-mode'] as SessionPermissionMode,
      session: {continue: flags.continue, fork: flags['fork-session'], resume: flags.resume},
      settings: loaded,
      ...(flags.tools === undefined ? {} : {tools: parseToolScope(flags.tools)}),
      // One task, one go: the MCP servers' tools are in its first request, however slowly they start.
      waitForTools: true,
      warn,
    })
    try {
      const style = makeStyle(process.stderr)
      const summary = {model: session.model, prices: await prices, provider: session.provider, sessionId: session.id}
      // Markdown only for a person reading a terminal: a pipe or file gets the model's text as
      // sent. Loaded only then: highlight.js and its languages are start-up time a pipe never uses.
      // Its tables are fitted to the terminal; its prose is left for the terminal to wrap.
      const markdown =
        format === 'text' && process.stdout.isTTY
          ? new (await import('../cli/reply-printer.js')).ReplyPrinter(
              makeStyle(process.stdout),
              undefined,
              () => process.stdout.columns,
            )
          : undefined
      const live =
        format === 'text'
          ? (await import('../cli/run-live.js')).liveOutput(process.stdout, process.stderr, style, {
              answer: markdown !== undefined,
            })
          : undefined
      const columns = process.stderr.isTTY ? process.stderr.columns : undefined
      const output = new RunOutput(
        format,
        {columns, live, markdown, stderr: process.stderr, stdout: process.stdout, style},
        summary,
        {verbose: flags.verbose},
      )
      subagentsOf(session)?.watch((progress) => output.subagent(progress))
      const plan = await this.savedPlan({continue: flags.continue, resume: flags.resume}, loaded.projectRoot)
      const exitCode = await runTask(session, prompt, output, {
        maxBudgetUsd,
        maxOutputTokens: loaded.config.max_output_tokens,
        plan,
        warn,
      })
      if (exitCode !== 0) this.exit(exitCode)
    } finally {
      await session.close()
    }
  }

  /** The plan (todo_write) the continued (or forked) session left, for the run to show before it goes on. */
  private async savedPlan(choice: SessionChoice, projectRoot: string): Promise<TodoItem[]> {
    const store = SessionStore.at(this.paths.dataDir)
    const stored = await store.chosen(choice, projectRoot).catch(() => undefined)
    return stored ? lastPlan((await store.read(stored.path)).lines) : []
  }
}

/** An amount in US dollars above 0 (oclif's own parse errors would exit 1, not as a usage error). */
function budgetUsd(input: string): number {
  const usd = Number(input)
  if (input.trim() === '' || !Number.isFinite(usd) || usd <= 0)
    throw new UserError(`--max-budget-usd takes an amount in US dollars above 0 (got ${JSON.stringify(input)})`, {
      exitCode: 2,
      hint: 'such as --max-budget-usd 2.50',
    })
  return usd
}
