import {ENV_BINDINGS} from './env.js'
import {joinKey, type JsonObject, resolveKey, type SchemaNode, unknownSettingError} from './key-path.js'
import {guardRedirects} from './redirect-guard.js'
import {HTTP_URL_PATTERN, SETTINGS_SCHEMA} from './schema.js'
import {type CheckedTier, nonUserTierViolations} from './tier-check.js'
import {settingsNeedingTrust} from './trust.js'
import {type Tier, TIERS} from './types.js'

/**
 * Every setting as `hanzo-dev config keys` lists it, derived rather than written twice: type,
 * default and description from the schema, the variable from env.ts, and what project and local
 * files may do with it from the checks the loader applies to them (tier-check.ts, trust.ts,
 * redirect-guard.ts), run here on a sample of each value. A rule added to those checks shows up
 * here without a change.
 */
export interface SettingKey {
  /** Dotted; a name the user picks is a placeholder: `mcp_servers.<name>.command`, `hooks.<n>.event`. */
  key: string
  type: string
  /** The values a setting that takes one of a list accepts. */
  values?: readonly unknown[]
  default?: unknown
  /** The environment variable that overrides it. */
  env?: string
  /** The tiers whose files it is read from. */
  tiers: Tier[]
  /** What project and local files may not do with it, in words; empty when they may set it like the user file. */
  rules: string[]
  description: string
}

/** The placeholder for a name the user picks, by the map it is a name in; `<name>` elsewhere. */
const PLACEHOLDERS: Readonly<Record<string, string>> = {
  env: '<NAME>',
  headers: '<NAME>',
  permissions: '<pattern>',
  pricing: '<model>',
}
/** Sample names for map entries: a plain one, and one sensitive.ts reads as a secret (rules that depend on the name differ between them). */
const PLAIN_NAME = 'sample'
const SECRET_NAME = 'API_KEY'
const TRUST = 'hanzo-dev trust'

/** Builds a settings document holding `value` at a key, with `name` for the key's last map name. */
type Place = (value: unknown, name?: string) => JsonObject

export function settingKeys(): SettingKey[] {
  const keys: SettingKey[] = []
  const walk = (node: SchemaNode, shown: string[], place: Place, named: boolean) => {
    if (shown.length > 0) keys.push(describeKey(node, joinKey(shown), place, named))
    for (const [name, child] of Object.entries(node.properties ?? {}))
      walk(child, [...shown, name], (v) => place({[name]: v}), false)
    if (typeof node.additionalProperties === 'object') {
      const placeholder = PLACEHOLDERS[shown.at(-1) ?? ''] ?? '<name>'
      walk(node.additionalProperties, [...shown, placeholder], (v, name = PLAIN_NAME) => place({[name]: v}), true)
    }

    if (node.items?.type === 'object') walk(node.items, [...shown, '<n>'], (v) => place([v]), false)
  }

  walk(SETTINGS_SCHEMA as SchemaNode, [], (v) => v as JsonObject, false)
  return keys
}

/** The settings at or under `key` (`sandbox`, `mcp_servers.fs`); a key the schema does not know is an error. */
export function settingKeysUnder(key: string): SettingKey[] {
  const {schema, segments} = resolveKey(key)
  if (!schema) throw unknownSettingError(key)
  return settingKeys().filter((k) => {
    const parts = k.key.split('.')
    return parts.length >= segments.length && segments.every((s, i) => parts[i] === s || /^<.+>$/.test(parts[i]))
  })
}

function describeKey(node: SchemaNode, key: string, place: Place, named: boolean): SettingKey {
  const env = ENV_BINDINGS.find((b) => joinKey(b.key) === key)?.variable
  return {
    key,
    type: typeLabel(node),
    ...(node.enum && {values: node.enum}),
    ...(node.default !== undefined && {default: node.default}),
    ...(env && {env}),
    ...tierRules(samples(node), place, named),
    description: node.description ?? '',
  }
}

function tierRules(values: unknown[], place: Place, named: boolean): {tiers: Tier[]; rules: string[]} {
  // Which of the sample values a check flags, with the plain name and with a secret-looking one.
  const flagged = (check: (doc: JsonObject) => unknown, name = PLAIN_NAME) =>
    values.filter((v) => check(place(v, name)))
  const userOnly = (doc: JsonObject) => nonUserTierViolations(doc)[0]?.reason
  const reason = userOnly(place(values[0]))
  const some = flagged(userOnly)
  if (some.length === values.length) {
    return {tiers: ['user'], rules: [reason === 'credential' ? 'user tier only: a credential' : 'user tier only']}
  }

  const rules: string[] = []
  if (some.length > 0) rules.push(`project and local files may not set ${orList(some)}`)
  if (named && flagged(userOnly, SECRET_NAME).length === values.length)
    rules.push(`user tier only when the name looks secret (like ${SECRET_NAME}): a credential`)
  const inProject = (found: unknown[], what: string) => {
    if (found.length > 0)
      rules.push(`in project and local files, ${found.length === values.length ? 'it' : orList(found)} ${what}`)
  }

  inProject(flagged(needsTrust), `takes effect only once the project is trusted (${TRUST})`)
  inProject(flagged(redirectsCredentials), 'is ignored when it would send your credentials elsewhere')
  return {tiers: [...TIERS], rules}
}

function projectTier(data: JsonObject): CheckedTier {
  return {data, file: '.hanzo/settings.json', tier: 'project', warnings: []}
}

function needsTrust(doc: JsonObject): boolean {
  return Object.keys(settingsNeedingTrust([projectTier(doc)])).length > 0
}

/** With a key of the user's configured, and user settings that give the sample MCP server a credential. */
function redirectsCredentials(doc: JsonObject): boolean {
  const user: CheckedTier = {
    data: {mcp_servers: {[PLAIN_NAME]: {env: {[SECRET_NAME]: 'x'}}}},
    file: 'settings.json',
    tier: 'user',
    warnings: [],
  }
  return guardRedirects([user, projectTier(structuredClone(doc))], ['your API key']).length > 0
}

/** The values a check is run on: every one of a list or a boolean, else one typical value. */
function samples(node: SchemaNode): unknown[] {
  if (node.enum) return [...node.enum]
  const [type] = [node.type].flat()
  if (type === 'boolean') return [true, false]
  if (type === 'integer' || type === 'number') return [node.minimum ?? 1]
  if (type === 'string') return [node.pattern === HTTP_URL_PATTERN ? 'https://example.com' : 'x']
  if (type === 'array') return [[samples(node.items ?? {type: 'string'})[0]]]
  return [{}]
}

function typeLabel(node: SchemaNode): string {
  if (node.enum) return node.enum.map(String).join(' | ')
  const label = (type: string | undefined): string => {
    if (type === 'string') return node.pattern === HTTP_URL_PATTERN ? 'URL' : 'string'
    if (type === 'array') return `list of ${node.items?.type === 'object' ? 'objects' : 'strings'}`
    if (type === 'integer' || type === 'number') {
      const {maximum, minimum} = node
      if (minimum !== undefined && maximum !== undefined) return `${type}, ${minimum} to ${maximum}`
      return minimum === undefined ? type : `${type}, at least ${minimum}`
    }

    return type ?? 'object'
  }

  return [node.type]
    .flat()
    .map((t) => label(t))
    .join(' or ')
}

function orList(values: unknown[]): string {
  const shown = values.map((v) => JSON.stringify(v))
  return shown.length === 1 ? shown[0] : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`
}
