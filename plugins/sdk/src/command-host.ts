import type {HostContext} from './contract.js'
import {isUserError} from './errors.js'
import {type Host, loadHost} from './host.js'
import {formatWarning} from './settings.js'

/** What a plugin command gets to work with: the hook's view of the run, without the hook's signal. */
export type CommandHost = Omit<HostContext, 'apiVersion' | 'signal'>

/**
 * The part of an oclif `Command` that {@link loadCommandHost} uses, typed structurally so the
 * sdk needs no oclif import: pass the command itself (`loadCommandHost(this)`).
 */
export interface HostCommand {
  config: {root: string}
  warn(message: string): unknown
  error(message: string, options: {exit: number; suggestions?: string[]}): never
}

export interface LoadCommandHostOptions {
  cwd?: string
  env?: Readonly<Record<string, string | undefined>>
}

/**
 * Loads the settings the way the running hanzo-dev does (credentials redacted), prints its
 * warnings on stderr, and turns a settings error (a malformed or invalid file) into one clear
 * message and exit 1, never a stack trace. Anything else is a bug and is rethrown with its stack.
 */
export async function loadCommandHost(
  command: HostCommand,
  options: LoadCommandHostOptions = {},
): Promise<CommandHost> {
  const cwd = options.cwd ?? process.cwd()
  const env = options.env ?? process.env
  let loaded: Awaited<ReturnType<Host['loadHostContext']>>
  try {
    loaded = await (await loadHost(command.config)).loadHostContext({cwd, env})
  } catch (error) {
    return failOnUserError(command, error)
  }

  for (const w of loaded.warnings) command.warn(formatWarning(w))
  return loaded.host
}

/** A host call's user error (bad input, a refusal) as the command's clear message and exit code; anything else rethrown. */
export function failOnUserError(command: Pick<HostCommand, 'error'>, error: unknown): never {
  if (isUserError(error))
    command.error(error.message, {exit: error.exitCode, suggestions: error.hint ? [error.hint] : undefined})
  throw error
}
