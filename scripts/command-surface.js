#!/usr/bin/env node
// Writes test/command-surface.json: every command hanzo-dev ships (its own and its core
// plugins', oclif's included), with the plugin that answers it, its aliases, flags and args,
// as oclif sees them from the manifests. test/e2e/command-surface.test.ts compares it with the
// built CLI, so a renamed flag or a lost command shows up in review as a diff of this file.
// Usage: node scripts/command-surface.js [--print]   (--print: to stdout, write nothing)
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import {Config} from '@oclif/core/config'

const root = join(import.meta.dirname, '..')
export const SURFACE_FILE = join(root, 'test', 'command-surface.json')

const flagSurface = (f) => ({
  allowNo: f.allowNo || undefined,
  aliases: f.aliases?.length ? f.aliases : undefined,
  char: f.char,
  default: f.default,
  hidden: f.hidden || undefined,
  multiple: f.multiple || undefined,
  options: f.options,
  required: Boolean(f.required),
  type: f.type,
})

const argSurface = (a) => ({default: a.default, options: a.options, required: Boolean(a.required)})

const sortedMap = (record, fn) =>
  Object.fromEntries(
    Object.keys(record ?? {})
      .sort()
      .map((name) => [name, fn(record[name])]),
  )

/** The command surface of the CLI at `dir`: core plugins only, never the user's. */
export async function commandSurface(dir = root) {
  const config = await Config.load({devPlugins: false, root: dir, userPlugins: false})
  const commands = {}
  for (const c of config.commands) {
    // oclif lists each alias as a command of its own; it shows up under its command instead.
    const aliases = c.aliases ?? []
    if (aliases.includes(c.id)) continue
    commands[c.id.replaceAll(':', config.topicSeparator)] = {
      aliases: aliases.length > 0 ? aliases.map((a) => a.replaceAll(':', config.topicSeparator)) : undefined,
      args: sortedMap(c.args, argSurface),
      flags: sortedMap(c.flags, flagSurface),
      hidden: c.hidden || undefined,
      plugin: c.pluginName,
    }
  }

  return {commands: sortedMap(commands, (c) => c)}
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = `${JSON.stringify(await commandSurface(), null, 2)}\n`
  if (process.argv.includes('--print')) {
    process.stdout.write(text)
  } else {
    writeFileSync(SURFACE_FILE, text)
    console.error(`wrote ${SURFACE_FILE}`)
  }
}
