import {readFileSync} from 'node:fs'
import {join} from 'node:path'

/**
 * Whether oclif's user plugins file in `dataDir` (what `plugins install` and `plugins link`
 * write) lists any: such a plugin may add or shadow commands. Unreadable or malformed counts as
 * yes, so that oclif reads it and says what is wrong.
 */
export function hasUserPlugins(dataDir: string): boolean {
  try {
    const pjson = JSON.parse(readFileSync(join(dataDir, 'package.json'), 'utf8'))
    return (pjson?.oclif?.plugins ?? []).length > 0
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT'
  }
}
