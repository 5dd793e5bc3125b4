import {dirname, join} from 'node:path'

import {UserError} from '../errors.js'
import {ConfigError, syntaxError} from './config-error.js'
import {JsonSyntaxError, parseJsonText} from './json-text.js'
import {INERT_KEYS, isPlainObject, joinKey, type JsonObject, resolveKey, type SchemaNode, setAt, unsetAt} from './key-path.js'
import {LOCAL_FILE, locateConfigFiles, PROJECT_DIR} from './locate.js'
import {userOnlyPaths} from './tier-check.js'
import type {ConfigFile, ConfigIO, LoadConfigOptions, Tier} from './types.js'
import {validateSettings} from './validate.js'

/**
 * `config set` / `config unset`: one key of one settings file changed, everything else kept
 * (other keys, their order, the file's indentation and line endings). The new document is
 * validated before anything is written; the write itself is the caller's atomic writer.
 */

export interface SettingsWriteIO {
  /** The file's text, or `null` when there is none. */
  readText(path: string): Promise<string | null>
  /** Replaces the file atomically (creating its directory is done by `mkdir` first). */
  writeText(path: string, text: string): Promise<void>
  mkdir(dir: string): Promise<void>
}

export interface EditTarget {
  file: Pick<ConfigFile, 'path' | 'tier'>
  /** The user settings file, named in the refusal of a credential. */
  userFile: string
  projectRoot: string
  io: SettingsWriteIO
}

export interface EditResult {
  file: string
  /** The dotted key as stored (segments joined). */
  key: string
  created: boolean
  /** The `.gitignore` that gained the local settings file, when one did. */
  gitignore?: string
}

const GITIGNORE_ENTRY = `${PROJECT_DIR}/${LOCAL_FILE}`

/** The settings file of `tier` for the project around `options.cwd`. */
export async function editTarget(options: LoadConfigOptions & {io: ConfigIO}, tier: Tier, writeIO: SettingsWriteIO): Promise<EditTarget> {
  const {files, projectRoot} = await locateConfigFiles(options)
  const file = files.find((f) => f.tier === tier) ?? files[0]
  return {file, io: writeIO, projectRoot, userFile: files[0].path}
}

export async function setSetting(target: EditTarget, key: string, raw: string): Promise<EditResult> {
  const {schema, segments} = checkedKey(key)
  const value = parseCliValue(raw, schema)
  const inert = findInertKey(value)
  if (inert) throw new UserError(`"${inert}" cannot be used as a key`)
  if (target.file.tier !== 'user') {
    const [refused] = userOnlyPaths(value, segments)
    if (refused) {
      throw new UserError(`${joinKey(refused)} is only read from your user settings (${target.userFile}) or the environment; not written to ${target.file.path}`, {
        hint: `set it with --tier user, or use an environment variable`,
      })
    }
  }

  const text = await target.io.readText(target.file.path)
  const document = parseDocument(text, target.file.path)
  setAt(document, segments, value)
  const problems = (await validateSettings(document)).problems.filter((p) => overlaps(p.segments, segments))
  const [problem] = problems
  if (problem) {
    throw new UserError(`${joinKey(problem.segments)} must be ${problem.expected}, found ${problem.found}; ${target.file.path} was not changed`)
  }

  await write(target, document, text)
  const result: EditResult = {created: text === null, file: target.file.path, key: joinKey(segments)}
  if (text === null && target.file.tier === 'local') result.gitignore = await ignoreLocalFile(target)
  return result
}

export async function unsetSetting(target: EditTarget, key: string): Promise<EditResult> {
  const {segments} = resolveKey(key)
  const text = await target.io.readText(target.file.path)
  const document = parseDocument(text, target.file.path)
  if (segments.some((s) => INERT_KEYS.has(s)) || !unsetAt(document, segments)) {
    throw new UserError(`${key} is not set in ${target.file.path}`, {hint: 'see where a value comes from with: hanzo-dev config list --show-origin'})
  }

  await write(target, document, text)
  return {created: false, file: target.file.path, key: joinKey(segments)}
}

/** VALUE is JSON when it parses as JSON, else a string; a setting that only takes strings keeps the text as typed. */
export function parseCliValue(raw: string, schema: SchemaNode | undefined): unknown {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return raw
  }

  return takesOnlyStrings(schema) && typeof parsed !== 'string' ? raw : parsed
}

/** Formats `document` as `original` was: its indentation, its line ending, a final newline. */
export function formatLike(document: unknown, original: string | null): string {
  const indent = original?.match(/^[ \t]+(?=\S)/m)?.[0] ?? 2
  const eol = original?.includes('\r\n') ? '\r\n' : '\n'
  return `${JSON.stringify(document, null, indent).replaceAll('\n', eol)}${eol}`
}

/** `.gitignore` text with the local settings file added, or `undefined` when it is already ignored. */
export function withGitignoreEntry(text: string | null): string | undefined {
  const covered = new Set([GITIGNORE_ENTRY, `/${GITIGNORE_ENTRY}`, LOCAL_FILE, PROJECT_DIR, `${PROJECT_DIR}/`, `/${PROJECT_DIR}`, `/${PROJECT_DIR}/`])
  const lines = (text ?? '').split(/\r?\n/).map((l) => l.trim())
  if (lines.some((l) => covered.has(l))) return undefined
  const base = text ?? ''
  return `${base}${base === '' || base.endsWith('\n') ? '' : '\n'}${GITIGNORE_ENTRY}\n`
}

function checkedKey(key: string): {schema: SchemaNode; segments: string[]} {
  const {schema, segments} = resolveKey(key)
  const inert = segments.find((s) => INERT_KEYS.has(s))
  if (inert) throw new UserError(`"${inert}" cannot be used as a key`)
  if (!schema || segments.some((s) => s === '')) {
    throw new UserError(`Unknown setting "${key}"`, {hint: 'see the settings and their keys with: hanzo-dev config set --help'})
  }

  return {schema, segments}
}

function parseDocument(text: string | null, path: string): JsonObject {
  if (text === null) return {}
  let value: unknown
  try {
    value = parseJsonText(text)
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw syntaxError(path, error.message, error.line, error.column)
    throw error
  }

  if (value === undefined) return {}
  if (!isPlainObject(value)) throw new ConfigError(`Invalid settings file ${path}: it must hold a JSON object ({ ... })`, path, '')
  return value
}

async function write(target: EditTarget, document: JsonObject, original: string | null): Promise<void> {
  const {path} = target.file
  try {
    await target.io.mkdir(dirname(path))
    await target.io.writeText(path, formatLike(document, original))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (typeof code !== 'string') throw error
    throw new UserError(`Cannot write ${path} (${code}); the file was not changed`, {cause: error})
  }
}

async function ignoreLocalFile(target: EditTarget): Promise<string | undefined> {
  const path = join(target.projectRoot, '.gitignore')
  const updated = withGitignoreEntry(await target.io.readText(path))
  if (updated === undefined) return undefined
  await target.io.writeText(path, updated)
  return path
}

function takesOnlyStrings(schema: SchemaNode | undefined): boolean {
  if (!schema) return false
  if (schema.type === 'string') return true
  return schema.type === undefined && Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')
}

function overlaps(a: readonly string[], b: readonly string[]): boolean {
  const n = Math.min(a.length, b.length)
  return a.slice(0, n).every((s, i) => s === b[i])
}

function findInertKey(value: unknown): string | undefined {
  if (Array.isArray(value)) return value.map((v) => findInertKey(v)).find((k) => k !== undefined)
  if (!isPlainObject(value)) return undefined
  for (const [k, v] of Object.entries(value)) {
    const found = INERT_KEYS.has(k) ? k : findInertKey(v)
    if (found) return found
  }

  return undefined
}
