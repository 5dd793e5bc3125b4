import {type Middleware, type ProcessConfinement, type ToolCall, type ToolResult, toolRefusal} from '@hanzo-dev/sdk'

import type {BackendStatus, ConfinedCommand, Confinement} from './confinement.js'
import type {Roots} from './mount-plan.js'
import type {Sandbox} from './sandbox.js'

/**
 * The sandbox step of the pipeline (after the pre-hooks, before the tool), by what a call says it
 * does (ToolCall's kind and locations, from its tool), whatever the tool's name:
 * - the files a call touches go through `Sandbox.checkPath`, for writing unless the tool only
 *   reads, and a refusal is a tool error naming the path and why;
 * - a call that runs commands (kind `execute`) has its working directory checked and runs wrapped
 *   by the mechanism in force (`wrapCommand`); its first result in a session says which, and any
 *   result says what the sandbox removed after it (project-guards.ts).
 * Other calls pass: they name no path the sandbox can judge, and permissions already ask about them.
 *
 * Every call that passes gets `confineProcess` for the processes a tool starts to outlive it
 * (language servers, started by the lsp tools and by the lsp middleware on an edit). That
 * middleware must run inside this one to see it: the root package.json lists the sandbox plugin
 * before lsp, and the host applies middleware in that order.
 */
export function sandboxMiddleware(sandbox: Sandbox): Middleware {
  let told = false
  const confineProcess = () => processConfinement(sandbox)
  return {
    name: 'sandbox',
    wrap(next) {
      if (sandbox.config.mode === 'off') return next
      return async (call, plain) => {
        const context = {...plain, confineProcess}
        for (const {path} of call.locations ?? []) {
          const verdict = await sandbox.checkPath(path, {cwd: context.cwd, write: call.kind !== 'read'})
          if (!verdict.allowed) return refusal(call, verdict.reason)
        }

        if (call.kind !== 'execute') return next(call, context)
        const verdict = await sandbox.checkPath(context.cwd)
        if (!verdict.allowed) return refusal(call, `the working directory ${verdict.reason}`)
        const confinement = await sandbox.confinement()
        let confined: ConfinedCommand | undefined
        try {
          confined = await sandbox.confineCommand()
        } catch (error) {
          return refusal(call, (error as Error).message)
        }

        const result = await next(call, confined ? {...context, wrapCommand: confined.wrap} : context)
        const notes = [
          (await confined
            ?.finish()
            .then(
              removedNote,
              (error: Error) => `[sandbox: what the command made could not be checked: ${error.message}]`,
            )) ?? '',
        ]
        if (!told) {
          told = true
          const roots = await sandbox.roots()
          notes.push(
            commandNote(confinement, confined?.writable ?? roots.writable, sandbox.config.network),
            ...roots.ignored.map((ignored) => `[${ignoredText(ignored)}]`),
          )
        }

        const note = notes.filter(Boolean).join('\n')
        if (note === '') return result
        return {...result, output: result.output === '' ? note : `${result.output}\n${note}`}
      }
    },
  }
}

/** When the sandbox settings cannot be read: every tool it would judge is refused, and no process may outlive a call, with the reason. */
export function refusingMiddleware(problem: string): Middleware {
  const reason = `${problem}; fix the sandbox settings`
  const confineProcess = async (): Promise<ProcessConfinement> => ({refused: reason})
  return {
    name: 'sandbox',
    wrap: (next) => async (call, context) =>
      judged(call) ? refusal(call, reason) : next(call, {...context, confineProcess}),
  }
}

/**
 * A long-lived process gets what a command gets (bubblewrap or unshare, the same binds and
 * guards); where neither works it does not start, unlike a command, which path checks let run
 * with its working directory checked: nothing checks what a server does while it runs.
 */
async function processConfinement(sandbox: Sandbox): Promise<ProcessConfinement> {
  try {
    const confinement = await sandbox.confinement()
    const confined = await sandbox.confineCommand()
    if (confined) return {finish: confined.finish, wrap: confined.wrap}
    return {
      refused: `the sandbox (${sandbox.config.mode} mode) cannot confine processes here (${unconfinedReasons(confinement)}); hanzo-dev sandbox status says more`,
    }
  } catch (error) {
    return {refused: `the sandbox cannot confine it: ${(error as Error).message}`}
  }
}

/** Whether the sandbox has something to judge in a call: files it touches, or commands it runs. */
function judged(call: ToolCall): boolean {
  return (call.locations?.length ?? 0) > 0 || call.kind === 'execute'
}

function refusal(call: ToolCall, reason: string): ToolResult {
  return toolRefusal(`sandbox: ${call.name} refused: ${reason}`)
}

/** What the sandbox removed after a command, and why, so the model does not make it again. */
export function removedNote(removed: string[]): string {
  if (removed.length === 0) return ''
  return `[sandbox: removed ${removed.join(', ')}: the command made ${removed.length === 1 ? 'it' : 'them'} where git or hanzo-dev would read ${removed.length === 1 ? 'it' : 'them'} (settings, hooks, git config), which commands may not change]`
}

/** An allowed path the sandbox leaves out, and why: for the model and for the user at the start. */
export function ignoredText({path, why}: Roots['ignored'][number]): string {
  return `sandbox: sandbox.allowed_paths ${JSON.stringify(path)} ignored: ${why}`
}

/** Says once per session how commands are confined, so the model knows what failures to expect. */
export function commandNote(confinement: Confinement, writable: string[], network: boolean): string {
  const {enforcement} = confinement
  if (enforcement === 'bwrap' || enforcement === 'unshare') {
    const how = enforcement === 'bwrap' ? 'bubblewrap' : 'an unshare mount namespace'
    const where = writable.length > 0 ? writable.join(', ') : 'nothing'
    return `[sandbox: commands run under ${how}: writable only ${where} (and a private /tmp)${network ? '' : ', no network'}]`
  }

  return `[sandbox: commands run unconfined${network ? '' : ' and with network'}, only their working directory is checked: neither works here (${unconfinedReasons(confinement)})]`
}

/** Why neither mechanism confines anything here, in the tools' own words where they gave some. */
function unconfinedReasons(confinement: Confinement): string {
  const why = (name: string, p: BackendStatus) => `${name}: ${p.reason ?? (p.path ? 'failed' : 'not found')}`
  return `${why('bubblewrap', confinement.bubblewrap)}; ${why('unshare', confinement.unshare)}`
}
