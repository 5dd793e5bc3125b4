import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {format} from 'node:util'

import type {ProjectTrustPort} from '../core/config/trust.js'
import {configGet} from './config-get.js'
import {hasUserPlugins} from './user-plugins.js'
import {loadUserSettings} from './user-settings.js'

/**
 * `config get KEY [--json]` answered without oclif (importing it is most of the command's time,
 * bench/RESULTS.md), by the code the command runs (config-get.ts), printed as oclif prints it.
 * Only the plain success: wherever oclif could do or print anything else, this prints nothing,
 * writes nothing and returns false, and oclif runs the command. test/e2e/entry-parity.test.ts
 * runs every case both ways.
 */
export async function fastConfigGet(args: readonly string[]): Promise<boolean> {
  const json = args.length === 4 && args[3] === '--json'
  if (!(args.length === 3 || json) || args[0] !== 'config' || args[1] !== 'get' || !PLAIN_KEY.test(args[2]))
    return false
  const home = process.env.HOME
  if (!home || process.platform === 'win32' || Object.keys(process.env).some((name) => OCLIF_ENV.test(name)))
    return false

  // As oclif's config finds its data and config dirs: a user plugin could shadow `config get`,
  // a user theme colours JSON.
  const {dirname} = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).oclif
  if (hasUserPlugins(join(process.env.XDG_DATA_HOME || join(home, '.local', 'share'), dirname))) return false
  if (json && existsSync(join(process.env.XDG_CONFIG_HOME || join(home, '.config'), dirname, 'theme.json')))
    return false

  let answer
  try {
    // No trust store: a project that needs trust may warn and records that it did; oclif's run must see it first.
    const loaded = await loadUserSettings(NO_TRUST)
    if (loaded.warnings.length > 0) return false
    answer = configGet(loaded, args[2])
  } catch {
    return false
  }

  // oclif's `this.log` (util.format, then a line) and `logJson` (JSON, 2 spaces; no theme: no colour).
  const text = json ? JSON.stringify(answer.result, null, 2) : format(answer.line)
  await new Promise((resolve) => {
    process.stdout.write(`${text}\n`, resolve)
  })
  return true
}

/** Dotted words only: no flag, no `--`, no rule key with parentheses. */
const PLAIN_KEY = /^[a-z][\w-]*(\.[\w-]+)*$/i

/** Variables oclif reads (its DEBUG, `HANZO_DEV_*` such as DATA_DIR or CONTENT_TYPE, `OCLIF_*`). */
const OCLIF_ENV = /^(DEBUG|HANZO_DEV_.*|OCLIF_.*)$/

const NO_TRUST: ProjectTrustPort = {
  lookup: () => Promise.reject(new Error('trust is for the oclif path to look up')),
  noteNoticed: () => Promise.reject(new Error('trust is for the oclif path to note')),
}
