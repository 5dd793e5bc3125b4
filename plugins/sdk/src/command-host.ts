import type {HostContext} from './contract.js'
import {loadHostLibrary} from './host-library.js'
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
export async function loadCommandHost(command: HostCommand, options: LoadCommandHostOptions = {}): Promise<CommandHost> {
  const cwd = options.cwd ?? process.cwd()
  const env = options.env ?? process.env
  const library = await loadHostLibrary(command.config)
  if (typeof library.loadHostContext !== 'function') {
    return command.error(`the hanzo-dev at ${command.config.root} cannot load settings for plugin commands; update hanzo-dev`, {exit: 1})
  }

  let loaded: Awaited<ReturnType<typeof library.loadHostContext>>
  try {
    loaded = await library.loadHostContext({cwd, env})
  } catch (error) {
    if (isUserError(error)) {
      return command.error(error.message, {exit: error.exitCode ?? 1, suggestions: error.hint ? [error.hint] : undefined})
    }

    throw error
  }

  for (const w of loaded.warnings) command.warn(formatWarning(w))
  return loaded.host
}

/** A host library call's user error (bad input, a refusal) as the command's clear message and exit code; anything else rethrown. */
export function failOnUserError(command: Pick<HostCommand, 'error'>, error: unknown): never {
  if (isUserError(error)) command.error(error.message, {exit: error.exitCode ?? 1, suggestions: error.hint ? [error.hint] : undefined})
  throw error
}

/**
 * The host's UserError (and its ConfigError) come from another module graph (the CLI's root
 * package), so they are recognised by name rather than by class.
 */
function isUserError(error: unknown): error is Error & {exitCode?: number; hint?: string} {
  return error instanceof Error && (error.name === 'UserError' || error.name === 'ConfigError')
}
