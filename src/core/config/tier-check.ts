import {ConfigError, invalidValueError} from './config-error.js'
import {INERT_KEYS, isPlainObject, joinKey, type JsonObject, leaves, unsetAt} from './key-path.js'
import {hasUrlUserinfo, userOnlyReason} from './sensitive.js'
import type {ConfigWarning, Tier} from './types.js'
import {describeValue, validateSettings} from './validate.js'

/**
 * Turns one tier's parsed file into settings the merge can trust: prototype keys dropped,
 * schema checked (unknown keys dropped with a warning, a wrong type is an error), and in the
 * project and local tiers every user-only key and every URL with user info dropped with a warning.
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
  const warn = (segments: string[], message: string) => warnings.push({file: source.file, keyPath: joinKey(segments), message})

  if (value === undefined) return {...source, data: {}, warnings}
  if (!isPlainObject(value)) {
    throw new ConfigError(`Invalid settings file ${source.file}: it must hold a JSON object ({ ... }), found ${describeValue(value)}`, source.file, '')
  }

  const data = withoutInertKeys(value, [], warn) as JsonObject
  const {problems, unknownKeys} = await validateSettings(data)
  const [problem] = problems
  if (problem) throw invalidValueError(source.file, joinKey(problem.segments), problem.expected, problem.found, source.tier)

  for (const segments of unknownKeys) {
    warn(segments, 'unknown setting, ignored')
    unsetAt(data, segments)
  }

  if (source.tier !== 'user') {
    for (const segments of userOnlyPaths(data, [])) {
      const credential = userOnlyReason(segments) === 'credential'
      const what = credential ? 'credentials are only read from' : 'this setting is only read from'
      warn(segments, `ignored: ${what} your user settings (${userFile})${credential ? ' or the environment' : ''}`)
      unsetAt(data, segments)
    }

    // A user name or password in a URL is a credential too (`https://user:token@host/`).
    for (const {segments, value} of leaves(data)) {
      if (typeof value === 'string' && hasUrlUserinfo(value)) {
        warn(segments, `ignored: a URL with a user name or password is a credential, only read from your user settings (${userFile})`)
        unsetAt(data, segments)
      }
    }
  }

  return {...source, data, warnings}
}

/** A deep copy without `__proto__`, `constructor` or `prototype` keys, at any depth. */
function withoutInertKeys(value: unknown, segments: string[], warn: (segments: string[], message: string) => void): unknown {
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

/** The outermost user-only keys: a whole `oauth_credentials` object is one. */
export function userOnlyPaths(value: unknown, segments: string[]): string[][] {
  if (segments.length > 0 && userOnlyReason(segments)) return [segments]
  if (!isPlainObject(value)) return []
  return Object.entries(value).flatMap(([k, v]) => userOnlyPaths(v, [...segments, k]))
}
