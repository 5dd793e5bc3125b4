import {invalidValueError} from './config-error.js'
import {joinKey, type JsonObject, setAt} from './key-path.js'
import {validateSettings} from './validate.js'

/**
 * The environment tier: these variables win over every settings file. An empty variable counts
 * as unset. A value of the wrong type is an error naming the variable.
 *
 * | Variable                  | Setting             |
 * |---------------------------|---------------------|
 * | `HANZO_API_KEY`           | `api_key`           |
 * | `HANZO_MODEL`             | `model`             |
 * | `HANZO_BASE_URL`          | `base_url`          |
 * | `HANZO_PROVIDER`          | `provider`          |
 * | `HANZO_MAX_TOKENS`        | `max_tokens` (an integer) |
 * | `HANZO_INPUT_MODE`        | `input_mode`        |
 * | `HANZO_SANDBOX_MODE`      | `sandbox.mode`      |
 * | `HANZO_CREDENTIALS_STORE` | `credentials.store` |
 */
export const ENV_BINDINGS: ReadonlyArray<{variable: string; key: readonly string[]; integer?: true}> = [
  {key: ['api_key'], variable: 'HANZO_API_KEY'},
  {key: ['model'], variable: 'HANZO_MODEL'},
  {key: ['base_url'], variable: 'HANZO_BASE_URL'},
  {key: ['provider'], variable: 'HANZO_PROVIDER'},
  {integer: true, key: ['max_tokens'], variable: 'HANZO_MAX_TOKENS'},
  {key: ['input_mode'], variable: 'HANZO_INPUT_MODE'},
  {key: ['sandbox', 'mode'], variable: 'HANZO_SANDBOX_MODE'},
  {key: ['credentials', 'store'], variable: 'HANZO_CREDENTIALS_STORE'},
]

export interface EnvSettings {
  data: JsonObject
  /** Dotted key -> variable name. */
  origins: Record<string, string>
}

export async function settingsFromEnv(env: Readonly<Record<string, string | undefined>>): Promise<EnvSettings> {
  const result: EnvSettings = {data: {}, origins: {}}
  for (const {integer, key, variable} of ENV_BINDINGS) {
    const raw = env[variable]
    if (raw === undefined || raw === '') continue
    const value = integer && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw
    const single: JsonObject = {}
    setAt(single, key, value)
    const [problem] = (await validateSettings(single)).problems
    if (problem) throw invalidValueError(variable, joinKey(key), problem.expected, problem.found, 'env')
    setAt(result.data, key, value)
    result.origins[joinKey(key)] = variable
  }

  return result
}
