import {readFile} from 'node:fs/promises'
import {isAbsolute, relative, resolve, sep} from 'node:path'
import {pathToFileURL} from 'node:url'

import {canonicalize, isInside} from '@hanzo-dev/sdk'
import type {Diagnostic} from 'vscode-languageserver-protocol'

import type {LanguageSpec} from './languages.js'
import {LspClient, type LspClientOptions, LspError} from './lsp-client.js'
import {languageFor, type LspSettings} from './lsp-settings.js'
import {locateCommand, lookedIn, serverHint} from './server-lookup.js'

export interface ServerManagerOptions {
  projectRoot: string
  env: Readonly<Record<string, string | undefined>>
  settings: LspSettings
  /** Told once per language whose server could not start or died: the session goes on without it. */
  report: (message: string) => void
  /** Overrides of the clients' timeouts. */
  client?: Omit<LspClientOptions, 'args' | 'env'>
}

/** A file a server covers, with what the server needs to know about it. */
export interface CoveredFile {
  /** Canonical absolute path. */
  path: string
  /** Relative to the project root, `/`-separated: what people and the model are shown. */
  relative: string
  uri: string
  language: LanguageSpec
  languageId: string
}

type Started = {client: LspClient} | {failure: string}

/**
 * The language servers of one workspace: one per language, started on the first file of that
 * language, found on PATH or in the project's node_modules/.bin. A server that cannot start (or
 * dies) is reported once and left out from then on; every other language goes on.
 */
export class ServerManager {
  private root?: Promise<string>
  private readonly servers = new Map<string, Promise<Started>>()

  constructor(private readonly options: ServerManagerOptions) {}

  /** The file at `path` (absolute, or relative to `cwd`) when a language covers it and it is in the workspace. */
  async cover(path: string, cwd = this.options.projectRoot): Promise<CoveredFile | undefined> {
    const root = await this.workspaceRoot()
    const absolute = await canonicalize(isAbsolute(path) ? path : resolve(cwd, path))
    if (!isInside(root, absolute) || absolute === root) return undefined
    const rel = relative(root, absolute).split(sep).join('/')
    const found = languageFor(this.options.settings.languages, rel)
    return found && {...found, path: absolute, relative: rel, uri: pathToFileURL(absolute).href}
  }

  /** Why the file's server is not available, or undefined when it runs (it is started when it has not been). */
  async unavailable(file: CoveredFile): Promise<string | undefined> {
    const started = await this.start(file.language)
    return 'failure' in started ? started.failure : undefined
  }

  /**
   * Runs `work` on the file's server with the file's text from disk open in it; undefined when
   * the server is not available. A server that died on the way is reported and dropped.
   */
  async withFile<T>(file: CoveredFile, work: (client: LspClient) => Promise<T>): Promise<T | undefined> {
    const started = await this.start(file.language)
    if ('failure' in started) return undefined
    const {client} = started
    try {
      await client.openDocument(file.uri, file.languageId, await readFile(file.path, 'utf8'))
      return await work(client)
    } catch (error) {
      if (!(error instanceof LspError) || !client.hasExited()) throw error
      const failure = `${file.language.name} language server stopped: ${error.message}`
      this.servers.set(file.language.id, Promise.resolve({failure}))
      this.options.report(`${failure}; the session goes on without it`)
      return undefined
    }
  }

  /** The file's current diagnostics (hints left out), waiting for them to settle; undefined without a server. */
  diagnostics(file: CoveredFile): Promise<Diagnostic[] | undefined> {
    return this.withFile(file, (client) => client.diagnostics(file.uri))
  }

  /** Whether a server may come from the project's node_modules/.bin (`lsp.project_servers`). */
  get projectServers(): boolean {
    return this.options.settings.projectServers
  }

  /** The languages the settings leave on. */
  languages(): readonly LanguageSpec[] {
    return this.options.settings.languages
  }

  /** Each language's server as it is now, without starting any: `/lsp` reports it. */
  async states(): Promise<Array<{language: LanguageSpec; state: 'running' | 'not started' | 'failed'; failure?: string}>> {
    return Promise.all(
      this.languages().map(async (language) => {
        const started = this.servers.get(language.id)
        if (!started) return {language, state: 'not started' as const}
        const settled = await started
        return 'failure' in settled ? {failure: settled.failure, language, state: 'failed' as const} : {language, state: 'running' as const}
      }),
    )
  }

  async shutdown(): Promise<void> {
    const started = await Promise.all(this.servers.values())
    this.servers.clear()
    await Promise.all(started.flatMap((s) => ('client' in s ? [s.client.shutdown()] : [])))
  }

  /** The project root, canonical: what relative paths are relative to. */
  workspaceRoot(): Promise<string> {
    this.root ??= canonicalize(this.options.projectRoot)
    return this.root
  }

  private start(language: LanguageSpec): Promise<Started> {
    let started = this.servers.get(language.id)
    if (!started) {
      started = this.launch(language)
      this.servers.set(language.id, started)
    }

    return started
  }

  private async launch(language: LanguageSpec): Promise<Started> {
    const root = await this.workspaceRoot()
    const lookup = {cwd: root, env: this.options.env, projectServers: this.options.settings.projectServers}
    let failure: string
    const candidates = await Promise.all(language.servers.map(async (server) => ({path: await locateCommand(server.command, lookup), server})))
    const found = candidates.find((c) => c.path)
    if (found?.path) {
      const client = new LspClient(found.path, pathToFileURL(root).href, {
        diagnosticsTimeoutMs: this.options.settings.diagnosticsTimeoutMs,
        ...this.options.client,
        args: found.server.args,
        env: this.options.env,
      })
      try {
        await client.start()
        return {client}
      } catch (error) {
        failure = `${language.name} language server ${found.server.command} did not start: ${error instanceof Error ? error.message : String(error)}`
      }
    } else {
      const names = language.servers.map((s) => s.command).join(' / ') || 'no server configured'
      const hint = await serverHint(language, lookup)
      failure = `${language.name}: ${names} not found ${lookedIn(lookup)}${hint ? ` (${hint})` : ''}`
    }

    this.options.report(`${failure}; the session goes on without ${language.name} diagnostics`)
    return {failure}
  }
}
