import {findExecutable} from '@hanzo-dev/sdk'

import {LANGUAGES, type LanguageSpec, type ServerSpec} from './languages.js'

export interface LookupOptions {
  env: Readonly<Record<string, string | undefined>>
  cwd: string
}

export interface FoundServer {
  language: LanguageSpec
  server: ServerSpec
  path: string
}

/** The preferred server for `language` that is on PATH, or undefined. */
export async function findServer(language: LanguageSpec, options: LookupOptions): Promise<FoundServer | undefined> {
  for (const server of language.servers) {
    const path = await findExecutable(server.command, options)
    if (path) return {language, path, server}
  }

  return undefined
}

/** Every known server on PATH, whatever the project's languages. */
export async function findAllServers(options: LookupOptions, languages: readonly LanguageSpec[] = LANGUAGES): Promise<FoundServer[]> {
  const all = languages.flatMap((language) => language.servers.map((server) => ({language, server})))
  const paths = await Promise.all(all.map(({server}) => findExecutable(server.command, options)))
  return all.flatMap((entry, i) => (paths[i] ? [{...entry, path: paths[i]}] : []))
}
