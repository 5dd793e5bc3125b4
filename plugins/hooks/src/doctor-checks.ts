import {type DoctorCheck, type HostContext, untrustedNote, type UntrustedSettings} from '@hanzo-dev/sdk'

import {resolveHookCommand} from './command-word.js'
import {type ParsedHook, parseHooks} from './hook-config.js'

type HooksHost = Pick<HostContext, 'env' | 'projectRoot' | 'settings' | 'untrusted'>

/**
 * Checks each configured hook parses and that the program it starts exists. Never runs a
 * hook: doctor may be run in a project the user has not looked at yet. Those of an untrusted
 * project are a warning each.
 */
export async function hooksChecks(host: HooksHost): Promise<DoctorCheck[]> {
  const parsed = parseHooks(host.settings.hooks)
  if (parsed.problem) {
    return [
      {
        detail: parsed.problem,
        hint: 'fix "hooks" in your settings (hanzo-dev config list --show-origin shows which file)',
        id: 'hooks.config',
        status: 'fail',
        title: 'hooks are valid',
      },
    ]
  }

  const {untrusted} = host
  const notTrusted = untrusted ? parseHooks(untrusted.hooks).hooks.map((h) => untrustedCheck(h, untrusted.status)) : []
  if (parsed.hooks.length === 0 && notTrusted.length === 0)
    return [{detail: 'no hooks configured', id: 'hooks.config', status: 'skip', title: 'hooks are valid'}]
  return [...(await Promise.all(parsed.hooks.map((h) => hookCheck(h, host)))), ...notTrusted]
}

function untrustedCheck(entry: ParsedHook, status: UntrustedSettings['status']): DoctorCheck {
  const {hint, reason} = untrustedNote(status)
  return {
    detail: `not trusted: ${reason}`,
    hint,
    id: `hooks.untrusted.${entry.index}`,
    status: 'warn',
    title: `hook ${entry.label}`,
  }
}

async function hookCheck(entry: ParsedHook, host: HooksHost): Promise<DoctorCheck> {
  const id = `hooks.hook.${entry.index}`
  const title = `hook ${entry.label}`
  const hint = 'fix it in your settings (hanzo-dev config list --show-origin shows which file)'
  if ('problem' in entry) return {detail: entry.problem, hint, id, status: 'fail', title}

  // Only the program is shown: the rest of a command line may carry a token.
  const resolved = await resolveHookCommand(entry.hook.command, {cwd: host.projectRoot, env: host.env})
  if ('problem' in resolved) {
    return {
      detail: resolved.problem,
      hint: `install the program, or fix the hook's command (relative paths start in ${host.projectRoot})`,
      id,
      status: 'fail',
      title,
    }
  }

  const where = 'builtin' in resolved ? 'shell builtin' : resolved.path
  const scope = entry.hook.tool_pattern === '*' ? '' : `, tools ${entry.hook.tool_pattern}`
  return {detail: `${resolved.word} (${where})${scope}, timeout ${entry.hook.timeout_ms} ms`, id, status: 'ok', title}
}
