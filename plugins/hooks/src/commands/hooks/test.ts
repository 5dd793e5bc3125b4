import {randomUUID} from 'node:crypto'
import {HOOK_EVENTS, type HookEvent, isRecord, loadCommandHost, makePaint, oneLine, printable} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import {CLIError} from '@oclif/core/errors'
import * as Flags from '@oclif/core/flags'

import {isHookEvent, parseHooks} from '../../hook-config.js'
import {type HookOutcome, HookRunner} from '../../hook-runner.js'

export interface HooksTestResult {
  event: HookEvent
  tool?: string
  /** deny when any hook blocks: a deny (exit 2), or an error of a hook without fail_open. */
  decision: 'allow' | 'deny'
  hooks: HookOutcome[]
}

const TOOL_EVENTS: readonly string[] = ['pre_tool_use', 'post_tool_use']

export default class HooksTest extends Command {
  static enableJsonFlag = true

  // One line per paragraph: oclif wraps them to the terminal.
  static description = `Run the hooks of an event as the agent would, and show each one's verdict.

Every matching hook runs (not only up to the first deny), in the project root, with the environment and stdin the agent gives it: this runs your hooks' commands. Each shows allow (exit 0), deny (exit 2, with its stderr as the reason) or error (any other ending: another code, a signal, a timeout), its exit code and how long it took. post_tool_use hooks get an empty tool output.

Exits 1 when any hook would block: a deny, or an error of a hook without fail_open.`

  static examples = [
    `<%= config.bin %> hooks test pre_tool_use --tool exec --input '{"command":"rm -rf /"}'`,
    `<%= config.bin %> hooks test post_tool_use --tool fs_write --input '{"path":"src/a.ts","content":""}' --json`,
    `<%= config.bin %> hooks test user_prompt_submit --prompt "deploy to production"`,
  ]

  static args = {
    // Checked here rather than listed as `options`: oclif prints options as one "(a|b|...)" word,
    // which a terminal of 80 columns breaks in the middle of an event name.
    event: Args.string({
      description: `The hook event: ${HOOK_EVENTS.join(', ')}.`,
      async parse(event) {
        if (isHookEvent(event)) return event
        throw new CLIError(`Unknown hook event "${event}": use one of ${HOOK_EVENTS.join(', ')}`, {exit: 2})
      },
      required: true,
    }),
  }

  static flags = {
    tool: Flags.string({
      description: 'Tool name the call is for (pre_tool_use, post_tool_use); tool_pattern is matched against it.',
    }),
    input: Flags.string({default: '{}', description: 'The tool input, a JSON object (HANZO_TOOL_INPUT).'}),
    prompt: Flags.string({description: 'The prompt, for user_prompt_submit.'}),
  }

  async run(): Promise<HooksTestResult> {
    const {args, flags} = await this.parse(HooksTest)
    const event = args.event as HookEvent
    const toolEvent = TOOL_EVENTS.includes(event)
    if (toolEvent && !flags.tool)
      this.error(`${event} hooks are chosen by tool: name one with --tool (e.g. --tool exec)`, {exit: 2})
    const input = toolEvent ? this.toolInput(flags.input) : undefined

    const host = await loadCommandHost(this)
    const invalid = parseHooks(host.settings.hooks).problem
    if (invalid) this.error(`${invalid} (hanzo-dev config list --show-origin shows which file sets it)`, {exit: 1})
    // Every outcome is printed in full below, so the runner's own failure log would repeat it.
    const {problems, runner} = HookRunner.fromSettings(host.settings.hooks, {
      env: host.env,
      log: () => {},
      projectRoot: host.projectRoot,
    })
    for (const problem of problems) this.warn(problem)

    // Hooks run in their own process group, out of reach of the terminal's Ctrl-C: pass it on.
    const controller = new AbortController()
    const interrupt = () => controller.abort()
    process.once('SIGINT', interrupt)
    const tool = toolEvent ? flags.tool : undefined
    let hooks: HookOutcome[]
    try {
      hooks = await runner.run(
        event,
        {
          cwd: host.cwd,
          prompt: event === 'user_prompt_submit' ? (flags.prompt ?? '') : undefined,
          sessionId: `hooks-test-${randomUUID()}`,
          signal: controller.signal,
          toolInput: input,
          toolName: tool,
          toolResult: event === 'post_tool_use' ? {error: null, is_error: false, output: ''} : undefined,
        },
        false,
      )
    } finally {
      process.off('SIGINT', interrupt)
    }

    if (controller.signal.aborted) this.error('interrupted; the running hook was killed', {exit: 130})
    const result: HooksTestResult = {
      decision: hooks.some((h) => h.blocks) ? 'deny' : 'allow',
      event,
      hooks,
      ...(tool ? {tool} : {}),
    }
    if (!flags.json) this.log(render(result))
    if (result.decision === 'deny') process.exitCode = 1
    return result
  }

  private toolInput(text: string): Record<string, unknown> {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      this.error(`--input is not JSON (${(error as Error).message}); give an object such as '{"command":"ls"}'`, {
        exit: 2,
      })
    }

    if (!isRecord(value))
      this.error(
        `--input must be a JSON object such as '{"command":"ls"}', not ${Array.isArray(value) ? 'a list' : typeof value}`,
        {exit: 2},
      )
    return value
  }
}

function render({decision, event, hooks, tool}: HooksTestResult): string {
  if (hooks.length === 0) return `No ${event} hooks${tool ? ` match ${tool}` : ''} (settings.hooks).`
  const paint = makePaint()
  const lines = [`${event} hooks${tool ? ` for ${tool}` : ''}:`]
  for (const h of hooks) {
    const mark = h.verdict === 'allow' ? paint.green('✓') : h.blocks ? paint.red('✗') : paint.yellow('!')
    const verdict = h.verdict === 'error' && !h.blocks ? 'error (fail_open: lets it through)' : h.verdict
    const exit = h.exitCode === null ? 'no exit code' : `exit ${h.exitCode}`
    // The settings wrote the label, the hook its reason: through the printer.
    lines.push(
      `${mark} ${oneLine(h.label, Number.POSITIVE_INFINITY)}  ${verdict}  ${paint.dim(`${exit}, ${h.durationMs} ms`)}`,
    )
    if (h.reason)
      lines.push(
        ...printable(h.reason)
          .split('\n')
          .map((l) => `    ${l}`),
      )
  }

  const what = tool ? `the ${tool} call` : event === 'user_prompt_submit' ? 'the prompt' : `the ${event} event`
  if (event === 'post_tool_use')
    lines.push(
      decision === 'deny'
        ? paint.yellow('→ a hook objected (post_tool_use hooks only report: the call has already run)')
        : paint.green('→ all allow'),
    )
  else
    lines.push(
      decision === 'deny'
        ? paint.red(`→ denied: ${what} would be stopped`)
        : paint.green(`→ allowed: ${what} would go ahead`),
    )
  return lines.join('\n')
}
