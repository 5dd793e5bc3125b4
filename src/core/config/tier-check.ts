import {ConfigError, invalidValueError} from './config-error.js'
import {INERT_KEYS, isPlainObject, joinKey, type JsonObject, leaves, suggestKey, unsetAt} from './key-path.js'
import {hasUrlUserinfo, type UserOnlyReason, userOnlyReason} from './sensitive.js'
import type {ConfigWarning, Tier} from './types.js'
import {describeValue, validateSettings} from './validate.js'

/**
 * Turns one tier's parsed file into settings the merge can trust: prototype keys dropped,
 * schema checked (unknown keys dropped with a warning, a wrong type is an error), and in the
 * project and local tiers everything {@link nonUserTierViolations} lists dropped with a warning.
 */

export interface TierSource {
  tier: Tier
  file: string
}

export interface CheckedTier extends TierSource {
  data: JsonObject
  warnings: ConfigWarning[]
}

export async function checkTier(value: unknown, source: TierSource, userFile: string): Promise<CheckedTier> {
  const warnings: ConfigWarning[] = []
  const warn = (segments: string[], message: string) =>
    warnings.push({file: source.file, keyPath: joinKey(segments), message})

  if (value === undefined) return {...source, data: {}, warnings}
  if (!isPlainObject(value)) {
    throw new ConfigError(
      `Invalid settings file ${source.file}: it must hold a JSON object ({ ... }), found ${describeValue(value)}`,
      source.file,
      '',
    )
  }

  const data = withoutInertKeys(value, [], warn) as JsonObject
  const {problems, unknownKeys} = await validateSettings(data)
  const [problem] = problems
  if (problem)
    throw invalidValueError(source.file, joinKey(problem.segments), problem.expected, problem.found, source.tier)

  for (const segments of unknownKeys) {
    const suggestion = suggestKey(joinKey(segments))
    warn(
      segments,
      `unknown setting, ignored${suggestion ? `; did you mean ${suggestion}?` : ''} (hanzo-dev config keys lists the settings)`,
    )
    unsetAt(data, segments)
  }

  if (source.tier !== 'user') {
    for (const {reason, segments} of nonUserTierViolations(data)) {
      warn(segments, `ignored: ${userTierOnly(reason, userFile)}`)
      unsetAt(data, segments)
    }
  }

  return {...source, data, warnings}
}

/** A deep copy without `__proto__`, `constructor` or `prototype` keys, at any depth. */
function withoutInertKeys(
  value: unknown,
  segments: string[],
  warn: (segments: string[], message: string) => void,
): unknown {
  if (Array.isArray(value)) return value.map((v, i) => withoutInertKeys(v, [...segments, String(i)], warn))
  if (!isPlainObject(value)) return value
  const out: JsonObject = {}
  for (const key of Object.keys(value)) {
    if (INERT_KEYS.has(key)) {
      warn([...segments, key], `ignored: "${key}" cannot be used as a key`)
      continue
    }

    out[key] = withoutInertKeys(value[key], [...segments, key], warn)
  }

  return out
}

export type TierViolationReason = UserOnlyReason | 'url-credential'

export interface TierViolation {
  segments: string[]
  reason: TierViolationReason
}

/**
 * What a project or local settings document may not hold: every user-only key (a whole
 * `oauth_credentials` object is one), and every value that is, or lists, a URL with a user name
 * or password in it (`https://user:token@host/` is a credential too). The loader ignores these
 * in those tiers and `config set` refuses to write them there, so both go by this one list.
 */
export function nonUserTierViolations(data: JsonObject): TierViolation[] {
  const found: TierViolation[] = userOnlyPaths(data, []).map((segments) => ({
    reason: userOnlyReason(segments) ?? 'trust',
    segments,
  }))
  // A repository may tighten the sandbox, never turn it off or give its commands the network.
  const sandbox = isPlainObject(data.sandbox) ? data.sandbox : {}
  if (sandbox.mode === 'off') found.push({reason: 'trust', segments: ['sandbox', 'mode']})
  if (sandbox.network === true) found.push({reason: 'trust', segments: ['sandbox', 'network']})
  const covered = (segments: string[]) => found.some((v) => v.segments.every((s, i) => s === segments[i]))
  for (const {segments, value} of leaves(data)) {
    const strings = Array.isArray(value) ? value : [value]
    if (!covered(segments) && strings.some((v) => typeof v === 'string' && hasUrlUserinfo(v)))
      found.push({reason: 'url-credential', segments})
  }

  return found
}

/** Whether a settings document holds a credential (what only the user tier may hold, less the trust settings). */
export function holdsCredential(document: JsonObject): boolean {
  return nonUserTierViolations(document).some((v) => v.reason !== 'trust')
}

/** Where a setting of a non-user tier is only read from, for the warning or the refusal that names it. */
export function userTierOnly(reason: TierViolationReason, userFile: string): string {
  if (reason === 'credential')
    return `credentials are only read from your user settings (${userFile}) or the environment`
  if (reason === 'trust') return `this setting is only read from your user settings (${userFile})`
  return `a URL with a user name or password is a credential, only read from your user settings (${userFile})`
}

/** The outermost user-only keys: a whole `oauth_credentials` object is one. */
export function userOnlyPaths(value: unknown, segments: string[]): string[][] {
  if (segments.length > 0 && userOnlyReason(segments)) return [segments]
  if (!isPlainObject(value)) return []
  return Object.entries(value).flatMap(([k, v]) => userOnlyPaths(v, [...segments, k]))
}
