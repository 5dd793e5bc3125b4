import {existsSync, readFileSync} from 'node:fs'
import {release} from 'node:os'

/**
 * The platform oclif names (`config.platform`, its user agent): `process.platform`, or `wsl` on
 * Windows' Linux. oclif finds out by importing wsl-utils (7 ES modules, 7-10 ms on every command,
 * `--help` too); its answer is only ever `wsl` where Linux shows a WSL sign, which this reads
 * synchronously. `undefined` where one shows: only wsl-utils' full check (is it a container?) can
 * tell then, so oclif's own code answers.
 */
export function plainPlatform(): NodeJS.Platform | undefined {
  if (process.platform !== 'linux') return process.platform
  if (release().toLowerCase().includes('microsoft')) return undefined
  if (existsSync('/proc/sys/fs/binfmt_misc/WSLInterop') || existsSync('/run/WSL')) return undefined
  try {
    if (readFileSync('/proc/version', 'utf8').toLowerCase().includes('microsoft')) return undefined
  } catch {
    // No /proc/version to read: wsl-utils then decides on the two paths above, as here.
  }

  return 'linux'
}
