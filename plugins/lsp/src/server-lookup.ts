import {join} from 'node:path'

import {findExecutable} from '@hanzo-dev/sdk'

import {LANGUAGES, type LanguageSpec, type ServerSpec} from './languages.js'

export interface LookupOptions {
  env: Readonly<Record<string, string | undefined>>
  /** The project root: relative PATH entries and `node_modules/.bin` are taken from it. */
  cwd: string
  /**
   * Whether a server may come from the project's `node_modules/.bin` (`lsp.project_servers`,
   * user settings only): whoever wrote the repository put those programs there, and a server
   * starts as soon as the agent touches a file of its language.
   */
  projectServers: boolean
}

export interface FoundServer {
  language: LanguageSpec
  server: ServerSpec
  path: string
}

/**
 * Where `command` runs from: PATH first, then, when the settings allow it, the project's
 * `node_modules/.bin` (a dev dependency such as typescript-language-server or pyright); a path
 * is taken as it is.
 */
export async function locateCommand(command: string, options: LookupOptions): Promise<string | undefined> {
  const found = await findExecutable(command, options)
  if (found || command.includes('/') || !options.projectServers) return found
  return projectCommand(command, options)
}

/** The preferred server for `language` that is on PATH or in node_modules/.bin, or undefined. */
export async function findServer(language: LanguageSpec, options: LookupOptions): Promise<FoundServer | undefined> {
  for (const server of language.servers) {
    const path = await locateCommand(server.command, options)
    if (path) return {language, path, server}
  }

  return undefined
}

/** Every known server on PATH or in node_modules/.bin, whatever the project's languages. */
export async function findAllServers(options: LookupOptions, languages: readonly LanguageSpec[] = LANGUAGES): Promise<FoundServer[]> {
  const all = languages.flatMap((language) => language.servers.map((server) => ({language, server})))
  const paths = await Promise.all(all.map(({server}) => locateCommand(server.command, options)))
  return all.flatMap((entry, i) => (paths[i] ? [{...entry, path: paths[i]}] : []))
}

/**
 * What to do about a language none of whose servers was found: allow the project's own server
 * when there is one in node_modules/.bin, else install the preferred one.
 */
export async function serverHint(language: LanguageSpec, options: LookupOptions): Promise<string | undefined> {
  if (!options.projectServers) {
    for (const {command} of language.servers) {
      const path = command.includes('/') ? undefined : await projectCommand(command, options)
      if (path) return `${path} is the project's own program: it runs once you allow it (hanzo-dev config set lsp.project_servers true)`
    }
  }

  return language.servers[0]?.install
}

/** Where the lookup looked: what a "not found" says. */
export function lookedIn(options: LookupOptions): string {
  return options.projectServers ? 'on PATH or in node_modules/.bin' : 'on PATH'
}

function projectCommand(command: string, options: LookupOptions): Promise<string | undefined> {
  return findExecutable(join(options.cwd, 'node_modules', '.bin', command), options)
}
