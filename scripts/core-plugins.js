#!/usr/bin/env node
// Writes dist/core-plugins.json: the root package and its core plugins as oclif's discovery finds
// them (after the manifests are built), so start-up can hand them to oclif ready-made instead of
// discovering them again on every command (src/cli/core-plugins.ts says when it may).
// A plugin this format cannot describe (a nested plugin, a CommonJS command) writes no file:
// oclif then discovers the plugins at start-up as usual.
import {rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import {Config} from '@oclif/core/config'

import {CORE_PLUGINS_FILE} from '../dist/cli/core-plugins.js'

const root = join(import.meta.dirname, '..')
const file = join(root, CORE_PLUGINS_FILE)

const config = await Config.load({devPlugins: false, root, userPlugins: false})
// The root, then the order package.json declares (oclif loads them concurrently, in any order).
const declared = config.pjson.oclif.plugins ?? []
const rank = (p) => (p.isRoot ? -1 : declared.indexOf(p.name))
const plugins = [...config.plugins.values()].sort((a, b) => rank(a) - rank(b))
const unsupported = plugins.find(
  (p) => p.type !== 'core' || p.parent || p.commands.some((c) => c.isESM !== true || !c.relativePath),
)
if (unsupported) {
  rmSync(file, {force: true})
  console.error(`core-plugins: ${unsupported.name} cannot be prebuilt; oclif will discover the plugins at start-up`)
} else {
  const described = plugins.map((p) => ({
    alias: p.alias,
    commands: p.commands.map(({load: _load, ...cached}) => cached),
    hooks: p.hooks,
    isRoot: p.isRoot,
    name: p.name,
    topics: p.topics,
    version: p.version,
  }))
  writeFileSync(file, `${JSON.stringify({plugins: described})}\n`)
}
