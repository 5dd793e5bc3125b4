import {UserError} from '../errors.js'
import {JsonNestingError, type JsonSyntaxError} from './json-text.js'
import type {Tier} from './types.js'

/**
 * A settings file (or settings environment variable) that cannot be used. The message names the
 * file, and the key path or line and column; it never quotes a value, which may be a secret.
 */
export class ConfigError extends UserError {
  readonly line?: number
  readonly column?: number

  constructor(
    message: string,
    /** The file path, or the environment variable name. */
    readonly file: string,
    readonly keyPath?: string,
    options: {line?: number; column?: number; hint?: string} = {},
  ) {
    super(message, {hint: options.hint})
    this.name = 'ConfigError'
    this.line = options.line
    this.column = options.column
  }
}

/** The settings file at `file` did not parse as JSON, or nests too deep to be settings. */
export function syntaxError(file: string, error: JsonSyntaxError): ConfigError {
  const {column, line} = error
  if (error instanceof JsonNestingError) {
    return new ConfigError(
      `Cannot use settings file ${file}: at line ${line}, column ${column} it has ${error.message}`,
      file,
      undefined,
      {
        column,
        hint: 'Settings need only a few levels of nesting: fix the file, or move it aside.',
        line,
      },
    )
  }

  return new ConfigError(
    `Invalid JSON in ${file} at line ${line}, column ${column}: ${error.message}`,
    file,
    undefined,
    {
      column,
      hint: 'Settings files are strict JSON: no comments, no trailing commas, double-quoted strings.',
      line,
    },
  )
}

/** `from` is the tier of the file at `source`, or `env` when `source` is an environment variable name. */
export function invalidValueError(
  source: string,
  keyPath: string,
  expected: string,
  found: string,
  from: Tier | 'env',
): ConfigError {
  const fromEnv = from === 'env'
  const where = fromEnv ? `environment variable ${source}` : source
  const subject = fromEnv ? `${source} (${keyPath})` : keyPath || 'the file'
  let hint = `Fix or unset ${source}.`
  if (!fromEnv)
    hint = keyPath
      ? `Fix the value, or remove it with: hanzo-dev config unset "${keyPath}" --tier ${from}`
      : 'Fix the file.'
  return new ConfigError(
    `Invalid setting in ${where}: ${subject} must be ${expected}, found ${found}`,
    source,
    keyPath,
    {hint},
  )
}
