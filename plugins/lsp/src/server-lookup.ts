import {join} from 'node:path'

import {findExecutable} from '@hanzo-dev/sdk'

import {LANGUAGES, type LanguageSpec, type ServerSpec} from './languages.js'

export interface LookupOptions {
  env: Readonly<Record<string, string | undefined>>
  /** The project root: relative PATH entries and `node_modules/.bin` are taken from it. */
  cwd: string
}

export interface FoundServer {
  language: LanguageSpec
  server: ServerSpec
  path: string
}

/**
 * Where `command` runs from: PATH first, then the project's `node_modules/.bin` (a dev
 * dependency such as typescript-language-server or pyright); a path is taken as it is.
 */
export async function locateCommand(command: string, options: LookupOptions): Promise<string | undefined> {
  const found = await findExecutable(command, options)
  if (found || command.includes('/')) return found
  return findExecutable(join(options.cwd, 'node_modules', '.bin', command), options)
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
