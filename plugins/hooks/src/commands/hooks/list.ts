import {
  type CommandHost,
  type HookEvent,
  loadCommandHost,
  makePaint,
  oneLine,
  untrustedLine,
  type UntrustedSettings,
} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'

import {resolveHookCommand} from '../../command-word.js'
import {type ParsedHook, parseHooks} from '../../hook-config.js'

export interface ListedHook {
  /** Position in the merged `hooks` list (user hooks first, then project, then local). */
  index: number
  event?: HookEvent
  tool_pattern?: string
  /** The program the command line starts; the rest of the line is never shown (it may carry a token). */
  program?: string
  /** Where the program is: a file on PATH, or "builtin" for a shell builtin; null when not found. */
  path?: string | null
  timeout_ms?: number
  fail_open?: boolean
  tier?: string
  /** false: set in this project's settings, which the user has not trusted (`hanzo-dev trust`); it never runs. `index` counts these apart. */
  trusted?: false
  /** Why the hook is invalid, or why its program cannot be found. */
  problem?: string
}

export interface HooksListResult {
  hooks: ListedHook[]
}

export default class HooksList extends Command {
  static enableJsonFlag = true

  static description = `List the configured hooks (settings.hooks) without running any.

Each hook shows its event, the tools it applies to (tool_pattern), the program its command starts (the rest of the command line is not shown: it may carry a token), its timeout, whether a failing hook lets the tool run (fail_open), and the settings tier it came from.`

  static examples = [
    '<%= config.bin %> hooks list',
    '<%= config.bin %> hooks list --json | jq ".hooks[] | select(.event == \\"pre_tool_use\\")"',
  ]

  async run(): Promise<HooksListResult> {
    const {flags} = await this.parse(HooksList)
    const host = await loadCommandHost(this)
    const parsed = parseHooks(host.settings.hooks)
    if (parsed.problem)
      this.error(`${parsed.problem} (hanzo-dev config list --show-origin shows which file sets it)`, {exit: 1})

    // An untrusted project's hooks are shown as not trusted: "none configured" would be untrue.
    const untrusted = await Promise.all(
      parseHooks(host.untrusted?.hooks).hooks.map(async (entry) => ({
        ...(await listed(entry, host)),
        trusted: false as const,
      })),
    )
    const hooks = [...(await Promise.all(parsed.hooks.map((entry) => listed(entry, host)))), ...untrusted]
    if (!flags.json) this.log(render(hooks, untrusted.length > 0 ? host.untrusted?.status : undefined))
    return {hooks}
  }
}

async function listed(entry: ParsedHook, host: CommandHost): Promise<ListedHook> {
  if ('problem' in entry) return {index: entry.index, problem: entry.problem}
  const {command, event, fail_open, tier, timeout_ms, tool_pattern} = entry.hook
  // Looked up the way the runner will start it (relative paths from the project root), never run.
  const resolved = await resolveHookCommand(command, {cwd: host.projectRoot, env: host.env})
  const where =
    'problem' in resolved
      ? {path: null, problem: resolved.problem}
      : {path: 'builtin' in resolved ? 'builtin' : resolved.path}
  return {event, fail_open, index: entry.index, program: resolved.word, tier, timeout_ms, tool_pattern, ...where}
}

/** The settings files wrote the patterns and commands (a cloned project's too, trusted or not): shown through the printer. */
function render(hooks: ListedHook[], untrusted: UntrustedSettings['status'] | undefined): string {
  if (hooks.length === 0) return 'No hooks configured (settings.hooks).'
  const paint = makePaint()
  const shown = (text: unknown) => oneLine(String(text), Number.POSITIVE_INFINITY)
  const lines: string[] = []
  for (const h of hooks) {
    const at = `hooks[${h.index}]`
    if (h.event === undefined) {
      lines.push(`${paint.red('✗')} ${at}  ${paint.red(`invalid: ${shown(h.problem)}`)}`)
      continue
    }

    const mark = h.problem || h.trusted === false ? paint.yellow('!') : paint.green('✓')
    const tier = h.tier ? paint.dim(`  (${h.tier})`) : ''
    lines.push(`${mark} ${at} ${h.event}${tier}${h.trusted === false ? `  ${paint.yellow('not trusted')}` : ''}`)
    lines.push(`    tools     ${shown(h.tool_pattern)}`)
    const where = h.problem ? paint.yellow(shown(h.problem)) : h.path === 'builtin' ? 'shell builtin' : shown(h.path)
    lines.push(`    program   ${shown(h.program ?? '?')}  ${paint.dim(`(${where})`)}`)
    lines.push(`    timeout   ${h.timeout_ms} ms${h.fail_open ? ', fail open (a failing hook lets the tool run)' : ''}`)
  }

  if (untrusted) lines.push('', untrustedLine(untrusted))
  return lines.join('\n')
}
