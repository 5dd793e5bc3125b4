import {dirname, join} from 'node:path'

import {knownProviders, unknownProviderError} from '../agent/endpoint.js'
import {UserError} from '../errors.js'
import {ConfigError, syntaxError} from './config-error.js'
import {JsonNestingError, JsonSyntaxError, parseJsonText} from './json-text.js'
import {
  INERT_KEYS,
  isPlainObject,
  joinKey,
  type JsonObject,
  resolveKey,
  type SchemaNode,
  setAt,
  unknownSettingError,
  unsetAt,
} from './key-path.js'
import {LOCAL_FILE, locateConfigFiles, PROJECT_DIR} from './locate.js'
import {holdsCredential, nonUserTierViolations, userTierOnly} from './tier-check.js'
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
  /**
   * Replaces the file atomically (creating its directory is done by `mkdir` first). `mode`: the
   * bits of a new file; an existing file keeps its own unless `forceMode`.
   */
  writeText(path: string, text: string, options?: {mode?: number; forceMode?: boolean}): Promise<void>
  /** Creates `dir` and its missing parents, with `mode` when given. */
  mkdir(dir: string, mode?: number): Promise<void>
  /** An existing file's permission bits; `undefined` when there is no file, or no such bits (Windows). */
  fileMode(path: string): Promise<number | undefined>
}

export interface EditTarget {
  file: Pick<ConfigFile, 'path' | 'tier'>
  /** The user settings file, named in the refusal of a credential. */
  userFile: string
  projectRoot: string
  io: SettingsWriteIO
  /** The other settings files there are: a `provider` may name one defined under `providers` in any of them. */
  otherFiles?: string[]
}

export interface EditResult {
  file: string
  /** The dotted key as stored (segments joined). */
  key: string
  created: boolean
  /** The `.gitignore` that gained the local settings file, when one did. */
  gitignore?: string
  /** Things done besides the change, or left undone, for the user to know (never a value). */
  warnings: string[]
}

const GITIGNORE_ENTRY = `${PROJECT_DIR}/${LOCAL_FILE}`

/** The user settings file may hold credentials: only its owner may read it, or list its directory. */
const PRIVATE_FILE_MODE = 0o600
const PRIVATE_DIR_MODE = 0o700

/** The settings file of `tier` for the project around `options.cwd`. */
export async function editTarget(
  options: LoadConfigOptions & {io: ConfigIO},
  tier: Tier,
  writeIO: SettingsWriteIO,
): Promise<EditTarget> {
  const {files, projectRoot} = await locateConfigFiles(options)
  const file = files.find((f) => f.tier === tier) ?? files[0]
  const otherFiles = files.filter((f) => f.exists && f !== file).map((f) => f.path)
  return {file, io: writeIO, otherFiles, projectRoot, userFile: files[0].path}
}

export async function setSetting(target: EditTarget, key: string, raw: string): Promise<EditResult> {
  const {schema, segments} = checkedKey(key)
  const value = parseCliValue(raw, schema)
  const inert = findInertKey(value)
  if (inert) throw new UserError(`"${inert}" cannot be used as a key`)
  if (target.file.tier !== 'user') refuseUserOnly(target, segments, value)

  const text = await readTarget(target)
  const document = parseDocument(text, target.file.path)
  setAt(document, segments, value)
  const problems = (await validateSettings(document)).problems.filter((p) => overlaps(p.segments, segments))
  const [problem] = problems
  if (problem) {
    throw new UserError(
      `${joinKey(problem.segments)} must be ${problem.expected}, found ${problem.found}; ${target.file.path} was not changed`,
    )
  }

  if (segments.length === 1 && segments[0] === 'provider')
    await refuseUnknownProvider(target, document, value as string)

  const result: EditResult = {created: text === null, file: target.file.path, key: joinKey(segments), warnings: []}
  await write(target, document, text, result.warnings)
  if (text === null && target.file.tier === 'local') await ignoreLocalFile(target, result)
  return result
}

export async function unsetSetting(target: EditTarget, key: string): Promise<EditResult> {
  const {segments} = resolveKey(key)
  const text = await readTarget(target)
  const document = parseDocument(text, target.file.path)
  if (segments.some((s) => INERT_KEYS.has(s)) || !unsetAt(document, segments)) {
    throw new UserError(`${key} is not set in ${target.file.path}`, {
      hint: 'see where a value comes from with: hanzo-dev config list --show-origin',
    })
  }

  const result: EditResult = {created: false, file: target.file.path, key: joinKey(segments), warnings: []}
  await write(target, document, text, result.warnings)
  return result
}

/** A non-user tier is refused whatever the loader would ignore there, before anything is read or written. */
function refuseUserOnly(target: EditTarget, segments: string[], value: unknown): void {
  const probe: JsonObject = {}
  setAt(probe, segments, value)
  const [refused] = nonUserTierViolations(probe)
  if (!refused) return
  throw new UserError(
    `${joinKey(refused.segments)}: ${userTierOnly(refused.reason, target.userFile)}; not written to ${target.file.path}`,
    {
      hint:
        refused.reason === 'credential'
          ? 'set it with --tier user, or use an environment variable'
          : 'set it with --tier user',
    },
  )
}

/**
 * The schema takes any name for `provider`; one that is neither built in nor defined under
 * `providers` in some settings file would fail every run, so it is refused here with the list.
 */
async function refuseUnknownProvider(target: EditTarget, document: JsonObject, name: string): Promise<void> {
  const others = await Promise.all((target.otherFiles ?? []).map((path) => readQuietly(target.io, path)))
  const providers = Object.assign(
    {},
    ...[...others, document].map((d) => (isPlainObject(d?.providers) ? d.providers : {})),
  )
  const known = knownProviders({providers})
  if (!known.includes(name)) throw unknownProviderError(name, known, `; ${target.file.path} was not changed`)
}

/** Another settings file, for what it defines; one that cannot be read is for the loader to report, not this edit. */
async function readQuietly(io: SettingsWriteIO, path: string): Promise<JsonObject | undefined> {
  try {
    const text = await io.readText(path)
    const value = text === null ? undefined : parseJsonText(text)
    return isPlainObject(value) ? value : undefined
  } catch (error) {
    if (
      error instanceof UserError ||
      error instanceof JsonSyntaxError ||
      typeof (error as NodeJS.ErrnoException).code === 'string'
    )
      return undefined
    throw error
  }
}

/**
 * VALUE is JSON when it parses as JSON, else a string; a setting that only takes strings keeps the
 * text as typed. JSON nested past the settings files' bound is refused: no setting takes it.
 */
export function parseCliValue(raw: string, schema: SchemaNode | undefined): unknown {
  let parsed: unknown
  try {
    parsed = parseJsonText(raw)
  } catch (error) {
    if (error instanceof JsonNestingError && !takesOnlyStrings(schema))
      throw new UserError(`The value has ${error.message}; no setting takes that, so nothing was changed`)
    return raw
  }

  return parsed === undefined || (takesOnlyStrings(schema) && typeof parsed !== 'string') ? raw : parsed
}

/** Formats `document` as `original` was: its indentation, its line ending, a final newline. */
export function formatLike(document: unknown, original: string | null): string {
  const indent = original?.match(/^[ \t]+(?=\S)/m)?.[0] ?? 2
  const eol = original?.includes('\r\n') ? '\r\n' : '\n'
  return `${JSON.stringify(document, null, indent).replaceAll('\n', eol)}${eol}`
}

/** `.gitignore` text with the local settings file added, or `undefined` when it is already ignored. */
export function withGitignoreEntry(text: string | null): string | undefined {
  const covered = new Set([
    GITIGNORE_ENTRY,
    `/${GITIGNORE_ENTRY}`,
    LOCAL_FILE,
    PROJECT_DIR,
    `${PROJECT_DIR}/`,
    `/${PROJECT_DIR}`,
    `/${PROJECT_DIR}/`,
  ])
  const lines = (text ?? '').split(/\r?\n/).map((l) => l.trim())
  if (lines.some((l) => covered.has(l))) return undefined
  const base = text ?? ''
  return `${base}${base === '' || base.endsWith('\n') ? '' : '\n'}${GITIGNORE_ENTRY}\n`
}

function checkedKey(key: string): {schema: SchemaNode; segments: string[]} {
  const {schema, segments} = resolveKey(key)
  const inert = segments.find((s) => INERT_KEYS.has(s))
  if (inert) throw new UserError(`"${inert}" cannot be used as a key`)
  if (!schema || segments.some((s) => s === '')) throw unknownSettingError(key)

  return {schema, segments}
}

function parseDocument(text: string | null, path: string): JsonObject {
  if (text === null) return {}
  let value: unknown
  try {
    value = parseJsonText(text)
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw syntaxError(path, error)
    throw error
  }

  if (value === undefined) return {}
  if (!isPlainObject(value))
    throw new ConfigError(`Invalid settings file ${path}: it must hold a JSON object ({ ... })`, path, '')
  return value
}

/** The target file's text; a file that cannot be read is an error naming it, not a raw errno. */
async function readTarget(target: EditTarget): Promise<string | null> {
  const {path} = target.file
  try {
    return await target.io.readText(path)
  } catch (error) {
    const code = errorCode(error)
    if (code === undefined) throw error
    throw new UserError(`Cannot read ${path} (${code}); nothing was changed`, {
      cause: error,
      hint: 'make it a readable JSON file, or remove it',
    })
  }
}

/**
 * Writes the settings file. The user file is private: created 0600 in a directory created 0700,
 * and an existing one that holds a credential but is open to other users is made 0600 (warned).
 */
async function write(
  target: EditTarget,
  document: JsonObject,
  original: string | null,
  warnings: string[],
): Promise<void> {
  const {path, tier} = target.file
  const isPrivate = tier === 'user'
  try {
    await target.io.mkdir(dirname(path), isPrivate ? PRIVATE_DIR_MODE : undefined)
    const mode = isPrivate ? await target.io.fileMode(path) : undefined
    const repair = mode !== undefined && (mode & 0o077) !== 0 && holdsCredential(document)
    if (repair) {
      warnings.push(
        `${path} holds credentials and was readable by other users (mode ${mode.toString(8).padStart(4, '0')}); it is now 0600`,
      )
    }

    await target.io.writeText(
      path,
      formatLike(document, original),
      isPrivate ? {forceMode: repair, mode: PRIVATE_FILE_MODE} : {},
    )
  } catch (error) {
    const code = errorCode(error)
    if (code === undefined) throw error
    throw new UserError(`Cannot write ${path} (${code}); the file was not changed`, {cause: error})
  }
}

/**
 * Adds the new local file to the project's `.gitignore`. The setting is already written by then,
 * so a failure here is a warning (with what to add by hand), not a failed command.
 */
async function ignoreLocalFile(target: EditTarget, result: EditResult): Promise<void> {
  const path = join(target.projectRoot, '.gitignore')
  try {
    const updated = withGitignoreEntry(await target.io.readText(path))
    if (updated === undefined) return
    await target.io.writeText(path, updated)
    result.gitignore = path
  } catch (error) {
    const reason = errorCode(error) ?? (error instanceof UserError ? error.message : undefined)
    if (reason === undefined) throw error
    result.warnings.push(
      `Could not add ${GITIGNORE_ENTRY} to ${path} (${reason}); add it by hand so the file is not committed`,
    )
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return typeof code === 'string' ? code : undefined
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
