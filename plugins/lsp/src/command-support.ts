import {stat} from 'node:fs/promises'
import {resolve} from 'node:path'

import {loadCommandHost} from '@hanzo-dev/sdk'
import type {Command} from '@oclif/core/command'

import {LspError} from './lsp-client.js'
import {LspSettingsError, type LspSettings, readLspSettings} from './lsp-settings.js'
import {notCovered} from './lsp-tools.js'
import type {SourcePosition} from './queries.js'
import {type CoveredFile, ServerManager, type ServerManagerOptions} from './server-manager.js'

/**
 * The exit codes of the lsp commands, for scripts: 1 is the answer "no" (errors found, nothing
 * at that position), 2 bad input (a missing file, a bad FILE:LINE:COL, a wrong lsp setting),
 * 3 no server to ask (not installed, did not start, crashed, timed out), 4 the server runs but
 * did not report a file's diagnostics within the wait (so nothing is known of it).
 */
export const EXIT_NO = 1
export const EXIT_BAD_INPUT = 2
export const EXIT_NO_SERVER = 3
export const EXIT_NOT_REPORTED = 4

/** Bad input from the command line: said as it is, with exit 2. */
export class InputError extends Error {
  override name = 'InputError'
}

/**
 * A command's body with the workspace's servers: they start on first use and are shut down
 * when it ends, whatever happens. A user error becomes one line and its exit code, never a stack.
 * `client` overrides the servers' waits (`lsp diagnostics --wait`).
 */
export async function withServers<T>(
  command: Command,
  work: (manager: ServerManager, cwd: string) => Promise<T>,
  client?: ServerManagerOptions['client'],
): Promise<T> {
  const host = await loadCommandHost(command)
  let manager: ServerManager | undefined
  try {
    // The failure is the command's error message: nothing to say on the side.
    manager = new ServerManager({
      client,
      env: host.env,
      projectRoot: host.projectRoot,
      report() {},
      settings: lspSettingsFor(command, host.settings),
    })
    return await work(manager, host.cwd)
  } catch (error) {
    if (error instanceof InputError) command.error(error.message, {exit: EXIT_BAD_INPUT})
    if (error instanceof LspError)
      command.error(error.message, {
        exit: EXIT_NO_SERVER,
        suggestions: ['hanzo-dev lsp servers shows which servers are found'],
      })
    throw error
  } finally {
    await manager?.shutdown()
  }
}

/** The `lsp` settings; a wrong one is the command's error (exit 2) naming the key. */
export function lspSettingsFor(command: Command, settings: Readonly<Record<string, unknown>>): LspSettings {
  try {
    return readLspSettings(settings)
  } catch (error) {
    if (error instanceof LspSettingsError) command.error(error.message, {exit: EXIT_BAD_INPUT})
    throw error
  }
}

/** The file a server covers at `path`; an {@link InputError} when it is missing or none does. */
export async function coveredFile(manager: ServerManager, path: string, cwd: string): Promise<CoveredFile> {
  const file = await manager.cover(path, cwd)
  const found = await stat(file?.path ?? resolve(cwd, path)).catch(() => undefined)
  if (!found) throw new InputError(`${path}: no such file`)
  if (!found.isFile()) throw new InputError(`${path} is not a file`)
  if (!file) throw new InputError(await notCovered(manager, path))
  return file
}

/** `FILE:LINE:COL` (1-based line and column) → its parts. */
export function parsePosition(argument: string): {path: string} & SourcePosition {
  const match = /^(.+):(\d+):(\d+)$/.exec(argument)
  const line = Number(match?.[2])
  const column = Number(match?.[3])
  if (!match || line < 1 || column < 1) {
    throw new InputError(
      `"${argument}" is not FILE:LINE:COL: give the file, then the line and the column, both counted from 1 (e.g. src/app.ts:12:5)`,
    )
  }

  return {column, line, path: match[1]}
}
