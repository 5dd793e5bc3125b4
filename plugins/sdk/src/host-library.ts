import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {pathToFileURL} from 'node:url'

import type {HostContext} from './contract.js'
import type {SettingsWarning} from './settings.js'

/** What a plugin's own command gets from the running hanzo-dev: the same view hooks get. */
export interface HostLibrary {
  loadHostContext(options: {cwd: string; env: Readonly<Record<string, string | undefined>>}): Promise<{
    host: Omit<HostContext, 'apiVersion' | 'signal'>
    warnings: SettingsWarning[]
  }>
}

/**
 * A plugin's commands reach the core through the CLI that runs them (oclif's `config.root`),
 * not through a dependency of their own: a plugin installed next to any hanzo-dev version
 * uses that version's settings rules, and core plugins need no cycle back to the root package.
 */
export async function loadHostLibrary(config: {root: string}): Promise<HostLibrary> {
  const pjson = JSON.parse(await readFile(join(config.root, 'package.json'), 'utf8')) as {main?: string}
  return (await import(pathToFileURL(join(config.root, pjson.main ?? 'index.js')).href)) as HostLibrary
}
