import {type ToolContext, type ToolDefinition, type ToolResult, toolError, toolOk} from '@hanzo-dev/sdk'

import {
  BACKGROUND_MAX_UNREAD_BYTES,
  type BackgroundProcesses,
  type BackgroundRead,
  backgroundStatus,
} from './background-processes.js'
import {objectSchema} from './input-schema.js'

/** How long `exec` with `background: true` waits for the first output before it returns without any. */
const FIRST_OUTPUT_WAIT_MS = 500
export const EXEC_OUTPUT_MAX_WAIT_MS = 60_000

/**
 * Starts `exec`'s command in the background. It outlives the call, so it is confined as any
 * process that does (ToolContext.confineProcess: the sandbox's wrapper, or a refusal where the
 * sandbox cannot confine it), and the sandbox's sweep runs when it ends, not when the call does.
 */
export async function startInBackground(
  command: string,
  argv: string[],
  env: NodeJS.ProcessEnv,
  context: ToolContext,
  processes: BackgroundProcesses | undefined,
): Promise<ToolResult> {
  if (!processes) return toolError('background commands are not available in this session; run it without background')
  const confinement = await context.confineProcess?.()
  if (confinement && 'refused' in confinement) return toolError(`sandbox: ${confinement.refused}`)
  const wrapped = confinement ? confinement.wrap(argv, context.cwd) : (context.wrapCommand?.(argv, context.cwd) ?? argv)
  const started = processes.start({
    argv: wrapped,
    command,
    cwd: context.cwd,
    env,
    ...(confinement ? {finish: () => confinement.finish().then(removedNote)} : {}),
  })
  const first = await processes.read(started.id, FIRST_OUTPUT_WAIT_MS)
  return toolOk(
    `started in the background as ${started.id}; exec_output({"id": "${started.id}"}) reads what it writes, exec_kill ends it\n${report(first!)}`,
  )
}

export function execOutputTool(processes: BackgroundProcesses): ToolDefinition<{id: string; wait_ms?: number}> {
  return {
    name: 'exec_output',
    aliases: ['BashOutput'],
    description: `A background command's output (stdout and stderr) since the last read, the first and last ${BACKGROUND_MAX_UNREAD_BYTES / 2 / 1024} KB of it, and whether it runs or its exit code.`,
    inputSchema: objectSchema(
      {
        id: {
          type: 'string',
          minLength: 1,
          description: 'The id exec gave when it started the command (bg1, bg2, ...).',
        },
        wait_ms: {
          type: 'integer',
          minimum: 0,
          maximum: EXEC_OUTPUT_MAX_WAIT_MS,
          description: 'Milliseconds to wait for new output when there is none yet. Defaults to 0.',
        },
      },
      ['id'],
    ),
    mutating: false,
    kind: 'read',
    describe: (input) => input.id,
    execute: async (input) => {
      const read = await processes.read(input.id, input.wait_ms ?? 0)
      return read ? toolOk(report(read)) : unknown(input.id, processes)
    },
  }
}

export function execKillTool(processes: BackgroundProcesses): ToolDefinition<{id: string}> {
  return {
    name: 'exec_kill',
    aliases: ['KillShell', 'KillBash'],
    description: 'End a background command and every process it started.',
    inputSchema: objectSchema({id: {type: 'string', minLength: 1, description: 'The id exec gave.'}}, ['id']),
    mutating: true,
    kind: 'other',
    describe: (input) => input.id,
    execute: async (input) => {
      const running = processes.list().find(({id}) => id === input.id)
      if (!running) return unknown(input.id, processes)
      if (running.exit) return toolOk(`${input.id} had already ended: ${backgroundStatus(running)}`)
      const ended = await processes.kill(input.id)
      return toolOk(`${input.id} ended: ${backgroundStatus(ended!)}`)
    },
  }
}

function report(read: BackgroundRead): string {
  return `status: ${backgroundStatus(read)}\n--- output ---\n${read.output === '' ? '(nothing new)' : read.output.replace(/\n$/, '')}`
}

function unknown(id: string, processes: BackgroundProcesses): ToolResult {
  const ids = processes.list().map((p) => p.id)
  return toolError(
    `no background command ${JSON.stringify(id)} in this session (${ids.length > 0 ? `its ids: ${ids.join(', ')}` : 'none was started'})`,
  )
}

/** What the sandbox removed once the command ended, so the model does not make it again. */
function removedNote(removed: string[]): string | undefined {
  if (removed.length === 0) return undefined
  return `[sandbox: removed ${removed.join(', ')}: the command made them where git or hanzo-dev would read them, which commands may not change]`
}
