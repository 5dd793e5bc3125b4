import {existsSync, readFileSync, realpathSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {pathToFileURL} from 'node:url'
import {Config} from '@oclif/core/config'
import type {Command, Interfaces} from '@oclif/core'

import {plainPlatform} from './platform.js'
import {hasUserPlugins} from './user-plugins.js'

/**
 * Start-up without oclif's plugin discovery. For every command, oclif finds the root package and
 * each core plugin again: it matches every dependency against every `oclif.plugins` entry with
 * minimatch, walks up to each plugin's package.json, reads it and its manifest, and sorts each
 * plugin's commands with `localeCompare` (whose first call initialises ICU's collator). None of
 * that changes between builds, so `npm run build` writes what it finds into one file
 * (`dist/core-plugins.json`, scripts/core-plugins.js) and start-up hands oclif those plugins
 * ready-made (`Config.load({plugins})`, oclif's own way of being given plugins).
 *
 * Only when every core plugin is still installed where and as it was built (same name, same
 * version); and since oclif then loads no user plugin, only when the user has installed or linked
 * none. Otherwise oclif discovers everything, as it always does. bench/RESULTS.md has the figures.
 */
export const CORE_PLUGINS_FILE = 'dist/core-plugins.json'

/** One plugin as oclif loaded it at build time; `commands` are its manifest's, in oclif's order. */
export interface PrebuiltPlugin {
  name: string
  alias: string
  version: string
  isRoot: boolean
  hooks: Interfaces.Plugin['hooks']
  topics: Interfaces.Topic[]
  commands: Array<Command.Cached & {relativePath: string[]}>
}

/** The oclif config the CLI in `root` runs with: from the prebuilt plugins when they hold. */
export async function loadCliConfig(root: string): Promise<Config> {
  installPlainPlatform()
  const plugins = prebuiltPlugins(root)
  if (plugins) {
    const config = await Config.load({plugins, root})
    if (!hasUserPlugins(config.dataDir)) return config
  }

  return Config.load(root)
}

function prebuiltPlugins(root: string): Map<string, Interfaces.Plugin> | undefined {
  let prebuilt: PrebuiltPlugin[]
  try {
    prebuilt = JSON.parse(readFileSync(join(root, CORE_PLUGINS_FILE), 'utf8')).plugins
  } catch {
    return undefined
  }

  const plugins = new Map<string, Interfaces.Plugin>()
  for (const entry of prebuilt) {
    const pluginRoot = entry.isRoot ? root : installedRoot(root, entry.name)
    const pjson = pluginRoot === undefined ? undefined : readPackageJson(pluginRoot)
    if (!pjson || pjson.name !== entry.name || pjson.version !== entry.version) return undefined
    plugins.set(entry.name, readyPlugin(entry, pluginRoot as string, pjson))
  }

  return plugins
}

/** Where Node would find package `name` from `root`: the nearest node_modules holding it. */
function installedRoot(root: string, name: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name)
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate)
    if (dirname(dir) === dir) return undefined
  }
}

function readPackageJson(dir: string): Interfaces.PJSON | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  } catch {
    return undefined
  }
}

/** The plugin as oclif's own `Plugin.load()` leaves it, from what it found at build time. */
function readyPlugin(entry: PrebuiltPlugin, root: string, pjson: Interfaces.PJSON): Interfaces.Plugin {
  const byId = new Map(entry.commands.map((c) => [c.id, c]))
  const plugin: Interfaces.Plugin = {
    _base: `hanzo-dev@${entry.version}`,
    alias: entry.alias,
    commandIDs: [...byId.keys()],
    commands: [],
    commandsDir: undefined,
    async findCommand(id: string, opts: {must?: boolean} = {}) {
      const cached = byId.get(id)
      // As oclif loads a command from its manifest entry (the build checked they are ES modules).
      const module = cached && (await import(pathToFileURL(join(root, ...cached.relativePath)).href))
      const cmd =
        module &&
        (typeof module.default?.run === 'function'
          ? module.default
          : Object.values(module).find((m) => typeof (m as Command.Class).run === 'function'))
      if (!cmd) {
        if (opts.must) throw new Error(`command ${id} not found in ${entry.name}`)
        return undefined as unknown as Command.Class
      }

      return Object.assign(cmd as Command.Class, {id, isESM: true, plugin, relativePath: cached?.relativePath})
    },
    hasManifest: true,
    hooks: entry.hooks,
    isRoot: entry.isRoot,
    async load() {},
    moduleType: 'module',
    name: entry.name,
    options: {isRoot: entry.isRoot, name: entry.name, root, type: 'core'},
    pjson,
    root,
    topics: entry.topics,
    type: 'core',
    valid: true,
    version: entry.version,
  } as Interfaces.Plugin
  plugin.commands = entry.commands.map((c) => ({
    ...c,
    load: () => plugin.findCommand(c.id, {must: true}),
    pluginAlias: entry.alias,
    pluginType: 'core',
  }))
  return plugin
}

/**
 * Makes oclif's `getPlatform` (lib/util/os.js, the function oclif wraps so it can be stubbed)
 * answer from {@link plainPlatform}, and from the original wherever that cannot tell: the same
 * answer without importing wsl-utils on every command (src/cli/platform.ts). An oclif without
 * that module is left as it is.
 */
function installPlainPlatform(): void {
  const require = createRequire(import.meta.url)
  let os: {getPlatform?: (() => Promise<string>) & {plain?: true}}
  try {
    os = require(join(dirname(require.resolve('@oclif/core/package.json')), 'lib', 'util', 'os.js'))
  } catch {
    return
  }

  const oclifPlatform = os.getPlatform
  if (typeof oclifPlatform !== 'function' || oclifPlatform.plain) return
  os.getPlatform = Object.assign(async () => plainPlatform() ?? oclifPlatform(), {plain: true as const})
}
