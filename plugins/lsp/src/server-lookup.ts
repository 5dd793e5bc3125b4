import {join} from 'node:path'

import {findExecutable} from '@hanzo-dev/sdk'

import {LANGUAGES, type LanguageSpec, type ServerSpec} from './languages.js'
import {projectOwnership} from './project-programs.js'

/** The one command that lets the project's own servers run. */
const ALLOW_PROJECT_SERVERS = 'hanzo-dev config set lsp.project_servers true'

export interface LookupOptions {
  env: Readonly<Record<string, string | undefined>>
  /** The project root: relative PATH entries and `node_modules/.bin` are taken from it. */
  cwd: string
  /**
   * Whether the project's own servers may run (`lsp.project_servers`, user settings only): whoever
   * wrote the repository chose those programs (project-programs.ts), and a server starts as soon
   * as the agent touches a file of its language.
   */
  projectServers: boolean
}

export interface FoundServer {
  language: LanguageSpec
  server: ServerSpec
  path: string
  /** Why it is the project's own program (project-programs.ts); undefined when it is not. */
  own?: string
}

/** What a language has: the server it uses, if any, and the project's own ones the settings hold back. */
export interface ServerChoice {
  use?: FoundServer
  heldBack: FoundServer[]
}

/**
 * Every known server on PATH (a path is taken as it is) or else in the project's
 * `node_modules/.bin` (a dev dependency such as typescript-language-server or pyright), each with
 * why it is the project's own program when it is; held back or not, whatever the project's languages.
 */
export async function findAllServers(
  options: LookupOptions,
  languages: readonly LanguageSpec[] = LANGUAGES,
): Promise<FoundServer[]> {
  const ownership = projectOwnership(options.cwd)
  const all = languages.flatMap((language) => language.servers.map((server) => ({language, server})))
  const found = await Promise.all(
    all.map(async (entry) => {
      const path = await locate(entry.server.command, options)
      return path === undefined ? [] : [{...entry, own: await ownership(path), path}]
    }),
  )
  return found.flat()
}

/** The language's servers in order of preference: the first found that may run is used. */
export async function chooseServer(language: LanguageSpec, options: LookupOptions): Promise<ServerChoice> {
  return choose(language, await findAllServers(options, [language]), options)
}

/** {@link chooseServer} over what {@link findAllServers} found. */
export function choose(language: LanguageSpec, found: readonly FoundServer[], options: LookupOptions): ServerChoice {
  const mine = found.filter((f) => f.language.id === language.id)
  const runs = (f: FoundServer) => !f.own || options.projectServers
  return {heldBack: mine.filter((f) => !runs(f)), use: mine.find(runs)}
}

/** Why a found server does not run. */
export function heldBackText(found: FoundServer): string {
  return `${found.server.command} (${found.path}) is held back as the project's own program: ${found.own}`
}

/** Why a language has no server, and what to do: let the project's own one run, else install one. */
export function noServerText(language: LanguageSpec, choice: ServerChoice): {problem: string; hint?: string} {
  const [held] = choice.heldBack
  if (held) return {hint: `to let it run: ${ALLOW_PROJECT_SERVERS}`, problem: heldBackText(held)}
  const names = language.servers.map((s) => s.command).join(' / ') || 'no server configured'
  return {hint: language.servers[0]?.install, problem: `${names} not found on PATH or in node_modules/.bin`}
}

function locate(command: string, options: LookupOptions): Promise<string | undefined> {
  if (command.includes('/')) return findExecutable(command, options)
  return findExecutable(command, options).then(
    (found) => found ?? findExecutable(join(options.cwd, 'node_modules', '.bin', command), options),
  )
}
