import type {Command} from '@oclif/core/command'
import {CLIError} from '@oclif/core/errors'
import {printable} from '@hanzo-dev/sdk/terminal-text'

import {closest} from '../core/closest.js'
import {isUserError} from '../core/errors.js'

/**
 * An error as the user is shown it: a UserError as oclif's one-line error with its exit code and
 * hint; Ctrl-C at any inquirer prompt (`ExitPromptError`, whoever asked) as "Cancelled", exit
 * 130; anything else as it is. exitWithError applies it to every error that ends the CLI;
 * installCommandErrors to every command's own error.
 */
export function userFacingError(error: unknown): unknown {
  const mistyped = flagTypo(error)
  if (mistyped) return mistyped
  if (isUserError(error))
    return new CLIError(error.message, {exit: error.exitCode, suggestions: error.hint ? [error.hint] : undefined})
  if (error instanceof Error && error.name === 'ExitPromptError') return new CLIError('Cancelled', {exit: 130})
  return error
}

/**
 * oclif's "Nonexistent flag" when each flag named is a near miss of one the command takes:
 * "Unknown flag --modl. Did you mean --model?", exit 2, without the usage (the answer is in the
 * question). Others are left as oclif words them, with the usage to pick from.
 */
function flagTypo(error: unknown): CLIError | undefined {
  const {flags, oclif, parse} = error as {
    flags?: unknown
    oclif?: {exit?: number}
    parse?: {input?: {flags?: Record<string, {char?: string}>}}
  }
  const defined = parse?.input?.flags
  if (
    !(error instanceof CLIError) ||
    !Array.isArray(flags) ||
    !defined ||
    !error.message.startsWith('Nonexistent flag')
  )
    return undefined
  const known = Object.entries(defined).flatMap(([name, flag]) => [
    `--${name}`,
    ...(flag.char ? [`-${flag.char}`] : []),
  ])
  const lines: string[] = []
  for (const typed of flags) {
    // `--modl=x` is the flag `--modl`.
    const name = String(typed).split('=')[0]
    const meant = name.startsWith('--') ? closest(name, known) : undefined
    if (!meant) return undefined
    lines.push(`Unknown flag ${name}. Did you mean ${meant}?`)
  }

  return new CLIError(lines.join('\n'), {exit: oclif?.exit ?? 2})
}

/**
 * `error` fit for a terminal, changed in place: every text oclif prints of it (message, code,
 * reference, suggestions, and the same of each cause) through the printer, since a server's or a
 * file's text is often part of them (a model server's error message, a name from an agent file).
 * The safety net under every error a command prints; `--json` prints the error as it was (JSON
 * escapes it). Reflect.set: a field that cannot be written is left, not turned into a crash.
 */
export function printableError<T>(error: T): T {
  const seen = new Set<unknown>()
  for (let cause: unknown = error; cause instanceof Error && !seen.has(cause); cause = cause.cause) {
    seen.add(cause)
    const fields = cause as unknown as Record<string, unknown>
    for (const key of ['message', 'code', 'ref'])
      if (typeof fields[key] === 'string') Reflect.set(cause, key, printable(fields[key]))
    const {suggestions} = fields
    if (Array.isArray(suggestions))
      Reflect.set(
        cause,
        'suggestions',
        suggestions.map((s: unknown) => (typeof s === 'string' ? printable(s) : s)),
      )
  }

  return error
}

/** A warning fit for a terminal: a string through the printer, an Error as {@link printableError}. */
export function printableWarning(input: string | Error): string | Error {
  return typeof input === 'string' ? printable(input) : printableError(input)
}

/**
 * The exit code oclif would exit with for `error`: parse errors carry 2 in `oclif.exit`, which
 * oclif's own JSON path ignores (it exits 1 for everything).
 */
export function exitCodeOf(error: unknown): number {
  const {oclif} = error as {oclif?: {exit?: unknown}}
  return typeof oclif?.exit === 'number' ? oclif.exit : 1
}

/**
 * The error object `--json` prints: its message, exit code and suggestions. Never the error's
 * other fields: a parse error holds the whole oclif config (every path, package and command),
 * and an HTTP error may hold headers.
 */
export function jsonError(error: unknown): {error: {message: string; exit: number; suggestions?: string[]}} {
  const message = error instanceof Error ? error.message : String(error)
  const {suggestions} = error as {suggestions?: string[]}
  return {error: {exit: exitCodeOf(error), message, ...(suggestions?.length ? {suggestions} : {})}}
}

/**
 * What bin/run.js does with an error that ends the CLI: oclif's `handle` (message, usage after a
 * parse error, exit code), on the userFacingError. `handle` shows the usage of the command named
 * in process.argv; when the not-found hook ran another one (a typo corrected, stray words split
 * off), that names no command, so it is pointed at the command whose parser failed.
 * With `--json` it is the error object a command prints (`xyzzy --json`): commands catch their own
 * errors, so only those before any command ran (no such command, a plugin failing to load) get here.
 */
export async function exitWithError(thrown: unknown, args: string[]): Promise<void> {
  if (jsonRequested(args)) {
    const error = userFacingError(thrown)
    process.exitCode = exitCodeOf(error)
    process.stdout.write(JSON.stringify(jsonError(error), null, 2) + '\n')
    return
  }

  const error = printableError(userFacingError(thrown)) as {
    parse?: {input?: {context?: {id?: string}}}
    showHelp?: boolean
  }
  const failed = error.showHelp ? error.parse?.input?.context?.id : undefined
  if (failed) process.argv.splice(2, Infinity, failed)
  const {handle} = await import('@oclif/core/handle')
  await handle(error as Error)
}

/** `--json` among the flags, not after `--` (where it is an argument). */
function jsonRequested(args: string[]): boolean {
  const end = args.indexOf('--')
  return (end === -1 ? args : args.slice(0, end)).includes('--json')
}

/**
 * Every command's errors, plugin commands' too (they extend oclif's Command: the sdk has no oclif
 * of its own to give them a base class): shown as userFacingError through the printer
 * (printableError), and with --json one small jsonError object on stdout with the error's own
 * exit code, instead of oclif's `toErrorJson`, which spreads the whole error (the dump of issue
 * 12) and exits 1. Their warnings go through the printer too (HanzoCommand's own `warn` does the
 * same). Installed by the `prerun` hook on the @oclif/core every core plugin shares; once,
 * however often a command runs another.
 */
export function installCommandErrors(command: typeof Command): void {
  type Catch = ((this: Command, error: Error) => Promise<unknown>) & {hanzo?: true}
  type Warn = (this: Command, input: string | Error) => string | Error
  const prototype = command.prototype as unknown as {catch: Catch; warn: Warn}
  const oclifCatch = prototype.catch
  if (oclifCatch.hanzo) return
  prototype.catch = async function (this: Command, thrown: Error) {
    const error = userFacingError(thrown) as Error
    if (!this.jsonEnabled()) return oclifCatch.call(this, printableError(error))
    process.exitCode = exitCodeOf(error)
    this.logJson(jsonError(error))
  }

  prototype.catch.hanzo = true
  const oclifWarn = prototype.warn
  prototype.warn = function (this: Command, input: string | Error) {
    return oclifWarn.call(this, printableWarning(input))
  }
}
