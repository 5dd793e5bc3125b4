import {printable} from '@hanzo-dev/sdk/terminal-text'

import {formatOrigin, formatValue, type SettingEntry, settingEntry} from '../core/config/display.js'
import {resolveKey, unknownSettingError} from '../core/config/key-path.js'
import type {LoadedConfig} from '../core/config/types.js'
import {UserError} from '../core/errors.js'

/** What `config get KEY` reports: the line it prints and its `--json` result. */
export interface ConfigGetAnswer {
  line: string
  result: SettingEntry & {origin: string}
}

/**
 * `config get`'s answer from loaded settings; throws its errors (not set, unknown key). The
 * command and bin/run.js's fast path (src/cli/fast-config-get.ts) both answer with this.
 */
export function configGet({config, origins}: LoadedConfig, key: string): ConfigGetAnswer {
  const entry = settingEntry(config, origins, key)
  if (!entry) throw resolveKey(key).schema ? new UserError(`${key} is not set`) : unknownSettingError(key)
  // The line for the terminal: a project's settings file may have written the value (JSON keeps it as it is).
  return {line: printable(formatValue(entry.value, 2)), result: {...entry, origin: formatOrigin(entry.origin)}}
}
