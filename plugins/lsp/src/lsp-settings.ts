import {extname} from 'node:path'

import {isRecord} from '@hanzo-dev/sdk'

import {LANGUAGES, type LanguageSpec} from './languages.js'

/** HIP-301 §8: how long an edit waits for the diagnostics it caused. */
export const DEFAULT_DIAGNOSTICS_TIMEOUT_MS = 3000
const MAX_DIAGNOSTICS_TIMEOUT_MS = 120_000

export interface LspSettings {
  /** The built-in languages with the settings' changes, then the languages the settings add; disabled ones left out. */
  languages: LanguageSpec[]
  diagnosticsTimeoutMs: number
  /** `lsp.project_servers`: whether a server may come from the project's node_modules/.bin (the host takes it from the user's settings only). */
  projectServers: boolean
}

/** A wrong `lsp` setting: the message names the key and what it must be. */
export class LspSettingsError extends Error {
  override name = 'LspSettingsError'
}

const SERVER_KEYS = new Set(['command', 'args', 'files', 'language_id', 'disabled'])

/**
 * Reads `lsp` from the merged settings. `lsp.servers.<name>` changes the built-in language of
 * that id (`typescript`, `python`, `rust`, `go`, `c`: its command and args, and with `files` the
 * files it covers) or adds a server that covers the `files` globs; `"disabled": true` turns a
 * language off. The host's schema checks the same when settings load; this guards plugin input.
 */
export function readLspSettings(settings: Readonly<Record<string, unknown>>): LspSettings {
  const lsp = settings.lsp
  if (lsp === undefined)
    return {diagnosticsTimeoutMs: DEFAULT_DIAGNOSTICS_TIMEOUT_MS, languages: [...LANGUAGES], projectServers: false}
  if (!isRecord(lsp))
    throw new LspSettingsError('lsp must be an object ({"servers": {...}, "diagnostics_timeout_ms": 3000})')
  const timeout = lsp.diagnostics_timeout_ms ?? DEFAULT_DIAGNOSTICS_TIMEOUT_MS
  if (
    typeof timeout !== 'number' ||
    !Number.isInteger(timeout) ||
    timeout < 0 ||
    timeout > MAX_DIAGNOSTICS_TIMEOUT_MS
  ) {
    throw new LspSettingsError(
      `lsp.diagnostics_timeout_ms must be a whole number of milliseconds from 0 to ${MAX_DIAGNOSTICS_TIMEOUT_MS}, found ${JSON.stringify(timeout)}`,
    )
  }

  const projectServers = lsp.project_servers ?? false
  if (typeof projectServers !== 'boolean')
    throw new LspSettingsError(`lsp.project_servers must be true or false, found ${JSON.stringify(projectServers)}`)
  const servers = lsp.servers ?? {}
  if (!isRecord(servers))
    throw new LspSettingsError(
      'lsp.servers must be an object of servers by name ({"vue": {"command": "vue-language-server", "args": ["--stdio"], "files": ["**/*.vue"]}})',
    )
  const languages = LANGUAGES.map((l) => ({...l}))
  const added: LanguageSpec[] = []
  for (const [name, entry] of Object.entries(servers)) {
    const builtin = languages.find((l) => l.id === name)
    const changed = readServer(name, entry, builtin)
    if (builtin) Object.assign(builtin, changed)
    else added.push(changed)
  }

  return {diagnosticsTimeoutMs: timeout, languages: [...added, ...languages].filter((l) => !l.disabled), projectServers}
}

function readServer(name: string, entry: unknown, builtin: LanguageSpec | undefined): LanguageSpec {
  const key = `lsp.servers.${name}`
  if (!isRecord(entry))
    throw new LspSettingsError(
      `${key} must be an object such as {"command": "my-server", "args": ["--stdio"], "files": ["**/*.ext"]}`,
    )
  const unknown = Object.keys(entry).find((k) => !SERVER_KEYS.has(k))
  if (unknown)
    throw new LspSettingsError(`${key}.${unknown} is not a server setting (known: ${[...SERVER_KEYS].join(', ')})`)
  const {args, command, disabled, files, language_id: languageId} = entry
  if (disabled !== undefined && typeof disabled !== 'boolean')
    throw new LspSettingsError(`${key}.disabled must be true or false`)
  if (command !== undefined && (typeof command !== 'string' || command.trim() === ''))
    throw new LspSettingsError(`${key}.command must be the server's executable (a non-empty string)`)
  if (args !== undefined && !isStringList(args)) throw new LspSettingsError(`${key}.args must be a list of strings`)
  if (files !== undefined && (!isStringList(files) || files.length === 0 || files.some((f) => f.trim() === ''))) {
    throw new LspSettingsError(`${key}.files must be a non-empty list of file globs such as ["**/*.vue"]`)
  }

  if (languageId !== undefined && (typeof languageId !== 'string' || languageId.trim() === ''))
    throw new LspSettingsError(`${key}.language_id must be a non-empty string`)
  const base: LanguageSpec = builtin ?? {extensions: {}, id: name, markers: [], name, servers: []}
  if (!builtin && disabled !== true) {
    if (command === undefined)
      throw new LspSettingsError(
        `${key}.command is missing: a server that is not one of ${LANGUAGES.map((l) => l.id).join(', ')} needs its command`,
      )
    if (files === undefined)
      throw new LspSettingsError(`${key}.files is missing: say which files the server covers, e.g. ["**/*.vue"]`)
  }

  const server =
    command === undefined
      ? undefined
      : {args: args ?? [], command, install: `check ${key}.command in your user settings`}
  return {
    ...base,
    disabled: disabled ?? base.disabled,
    files: files ?? base.files,
    languageId: languageId ?? base.languageId,
    // A configured command replaces the built-in choices; configured args alone apply to all of them.
    servers: server ? [server] : args === undefined ? base.servers : base.servers.map((s) => ({...s, args})),
  }
}

/** The first language that covers `relativePath` (relative to the project root, `/`-separated), with the file's LSP language id. */
export function languageFor(
  languages: readonly LanguageSpec[],
  relativePath: string,
): {language: LanguageSpec; languageId: string} | undefined {
  const extension = extname(relativePath).toLowerCase()
  for (const language of languages) {
    const covered = language.files
      ? language.files.some((glob) => globMatches(glob, relativePath))
      : extension in language.extensions
    if (covered) return {language, languageId: language.languageId ?? language.extensions[extension] ?? language.id}
  }

  return undefined
}

/**
 * `*` and `?` within a path segment, `**` across them, `{a,b}` alternatives. A glob without a
 * `/` matches the file name anywhere (`*.vue`), as .gitignore reads it.
 */
export function globMatches(glob: string, relativePath: string): boolean {
  const target = glob.includes('/') ? relativePath : relativePath.split('/').at(-1)!
  return globRegExp(glob.replace(/^\.\//, '')).test(target)
}

function globRegExp(glob: string): RegExp {
  let source = ''
  let depth = 0
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/'
      source += slash ? '(?:.*/)?' : '.*'
      i += slash ? 2 : 1
    } else if (c === '*') source += '[^/]*'
    else if (c === '?') source += '[^/]'
    else if (c === '{') {
      depth++
      source += '(?:'
    } else if (c === '}' && depth > 0) {
      depth--
      source += ')'
    } else if (c === ',' && depth > 0) source += '|'
    else source += c.replace(/[.+^$()|[\]\\{}]/g, '\\$&')
  }

  return new RegExp(`^${source}$`)
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string')
}
