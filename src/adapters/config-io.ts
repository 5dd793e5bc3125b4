import {mkdir, readFile, stat} from 'node:fs/promises'
import {createRequire} from 'node:module'

import type {SettingsWriteIO} from '../core/config/edit.js'
import {parseJsonText} from '../core/config/json-text.js'
import type {ConfigIO} from '../core/config/types.js'

/**
 * The real file system, with cosmiconfig reading the settings files.
 *
 * cosmiconfig's public `cosmiconfig()` is not used: it first searches `process.cwd()` for a
 * "meta config" and *executes* `.config/config.js` if there is one, and its `$import` key loads
 * other files, `.js` included. Running hanzo-dev inside a cloned repository must never run that
 * repository's code. So the loader is cosmiconfig's `Explorer` (what `cosmiconfig()` builds after
 * that search) with a single JSON loader, whose result is wrapped so no `$import` is ever followed.
 * It is imported on first use: a run with no settings files never loads cosmiconfig.
 */

interface Explorer {
  load(filepath: string): Promise<{config?: {document: unknown}} | null>
}

type ExplorerClass = new (options: Record<string, unknown>) => Explorer

let explorer: Promise<Explorer> | undefined

async function settingsExplorer(): Promise<Explorer> {
  // require, not import(): cosmiconfig is CommonJS, and the ESM wrapper around it costs more
  // than the module itself on this path (bench/RESULTS.md).
  explorer ??= Promise.resolve().then(() => {
    const {Explorer} = createRequire(import.meta.url)('cosmiconfig/dist/Explorer.js') as {Explorer: ExplorerClass}
    return new Explorer({
      cache: false,
      ignoreEmptySearchPlaces: true,
      loaders: {'.json': (_file: string, content: string) => ({document: parseJsonText(content)})},
      mergeImportArrays: false,
      mergeSearchPlaces: false,
      metaConfigFilePath: null,
      moduleName: 'hanzo',
      searchPlaces: [],
      searchStrategy: 'none',
      transform: (result: unknown) => result,
    })
  })
  return explorer
}

export const nodeConfigIO: ConfigIO = {
  async kind(path) {
    try {
      const stats = await stat(path)
      return stats.isFile() ? 'file' : stats.isDirectory() ? 'directory' : 'other'
    } catch (error) {
      if (isMissing(error)) return 'missing'
      throw error
    }
  },

  async readJson(path) {
    try {
      const result = await (await settingsExplorer()).load(path)
      return {value: result?.config?.document}
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
  },
}

/** What `config set` / `unset` use; `writeText` is the atomic writer (src/adapters/atomic-write.ts). */
export function nodeSettingsWriteIO(writeText: SettingsWriteIO['writeText']): SettingsWriteIO {
  return {
    async mkdir(dir) {
      await mkdir(dir, {recursive: true})
    },
    async readText(path) {
      try {
        return await readFile(path, 'utf8')
      } catch (error) {
        if (isMissing(error)) return null
        throw error
      }
    },
    writeText,
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' || code === 'ENOTDIR'
}
