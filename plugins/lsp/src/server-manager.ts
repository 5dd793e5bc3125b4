import {readFile} from 'node:fs/promises'
import {isAbsolute, relative, resolve, sep} from 'node:path'
import {pathToFileURL} from 'node:url'

import {canonicalize, isInside, type ToolContext} from '@hanzo-dev/sdk'
import type {LanguageSpec} from './languages.js'
import {type DiagnosticsReport, LspClient, type LspClientOptions, LspError} from './lsp-client.js'
import {languageFor, type LspSettings} from './lsp-settings.js'
import {chooseServer, noServerText} from './server-lookup.js'

export interface ServerManagerOptions {
  projectRoot: string
  env: Readonly<Record<string, string | undefined>>
  settings: LspSettings
  /** Told once per language whose server could not start or died, and what the sandbox removed after one: the session goes on. */
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
  /** How its server starts when it is not running yet: the tool call's sandbox (absent: unconfined). */
  confine?: ToolContext['confineProcess']
}

/** `release`: once the server is gone, what the sandbox has to do after it (confined servers only). */
type Started = {client: LspClient; release?: () => Promise<void>} | {failure: string}

/**
 * The language servers of one workspace: one per language, started on the first file of that
 * language, found on PATH or in the project's node_modules/.bin (server-lookup.ts), confined as
 * the sandbox of the call that first needs it says. A server that cannot start, is held back (the
 * project's own program without consent, a sandbox that cannot confine it) or dies is reported
 * once and left out from then on; every other language goes on.
 */
export class ServerManager {
  private root?: Promise<string>
  private readonly servers = new Map<string, Promise<Started>>()

  constructor(private readonly options: ServerManagerOptions) {}

  /**
   * The file at `path` (absolute, or relative to `cwd`) when a language covers it and it is in
   * the workspace; `confine` is the tool call's (ToolContext.confineProcess).
   */
  async cover(
    path: string,
    cwd = this.options.projectRoot,
    confine?: ToolContext['confineProcess'],
  ): Promise<CoveredFile | undefined> {
    const root = await this.workspaceRoot()
    const absolute = await canonicalize(isAbsolute(path) ? path : resolve(cwd, path))
    if (!isInside(root, absolute) || absolute === root) return undefined
    const rel = relative(root, absolute).split(sep).join('/')
    const found = languageFor(this.options.settings.languages, rel)
    return found && {...found, confine, path: absolute, relative: rel, uri: pathToFileURL(absolute).href}
  }

  /** Why the file's server is not available, or undefined when it runs (it is started when it has not been). */
  async unavailable(file: CoveredFile): Promise<string | undefined> {
    const started = await this.start(file)
    return 'failure' in started ? started.failure : undefined
  }

  /**
   * Runs `work` on the file's server with the file's text from disk open in it; undefined when
   * the server is not available. A server that died on the way is reported and dropped.
   */
  async withFile<T>(file: CoveredFile, work: (client: LspClient) => Promise<T>): Promise<T | undefined> {
    const started = await this.start(file)
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
      await started.release?.()
      return undefined
    }
  }

  /** The file's current diagnostics (hints left out), waiting for them to settle; undefined without a server. */
  diagnostics(file: CoveredFile): Promise<DiagnosticsReport | undefined> {
    return this.withFile(file, (client) => client.diagnostics(file.uri))
  }

  /** Whether the project's own servers may run (`lsp.project_servers`). */
  get projectServers(): boolean {
    return this.options.settings.projectServers
  }

  /** The languages the settings leave on. */
  languages(): readonly LanguageSpec[] {
    return this.options.settings.languages
  }

  /** Each language's server as it is now, without starting any: `/lsp` reports it. */
  async states(): Promise<
    Array<{language: LanguageSpec; state: 'running' | 'not started' | 'failed'; failure?: string}>
  > {
    return Promise.all(
      this.languages().map(async (language) => {
        const started = this.servers.get(language.id)
        if (!started) return {language, state: 'not started' as const}
        const settled = await started
        return 'failure' in settled
          ? {failure: settled.failure, language, state: 'failed' as const}
          : {language, state: 'running' as const}
      }),
    )
  }

  async shutdown(): Promise<void> {
    const started = await Promise.all(this.servers.values())
    this.servers.clear()
    await Promise.all(
      started.map(async (s) => {
        if (!('client' in s)) return
        await s.client.shutdown()
        await s.release?.()
      }),
    )
  }

  /** The project root, canonical: what relative paths are relative to. */
  workspaceRoot(): Promise<string> {
    this.root ??= canonicalize(this.options.projectRoot)
    return this.root
  }

  private start(file: CoveredFile): Promise<Started> {
    let started = this.servers.get(file.language.id)
    if (!started) {
      started = this.launch(file).then((launched) => {
        if ('failure' in launched)
          this.options.report(`${launched.failure}; the session goes on without ${file.language.name} diagnostics`)
        return launched
      })
      this.servers.set(file.language.id, started)
    }

    return started
  }

  private async launch({confine, language}: CoveredFile): Promise<Started> {
    const root = await this.workspaceRoot()
    const choice = await chooseServer(language, {
      cwd: root,
      env: this.options.env,
      projectServers: this.options.settings.projectServers,
    })
    const found = choice.use
    if (!found) {
      const {hint, problem} = noServerText(language, choice)
      return {failure: `${language.name}: ${problem}${hint ? ` (${hint})` : ''}`}
    }

    const server = `${language.name} language server ${found.server.command}`
    const confined = await confine?.()
    if (confined && 'refused' in confined) return {failure: `${server} is held back: ${confined.refused}`}
    const client = new LspClient(found.path, pathToFileURL(root).href, {
      diagnosticsTimeoutMs: this.options.settings.diagnosticsTimeoutMs,
      ...this.options.client,
      args: found.server.args,
      env: this.options.env,
      wrap: confined?.wrap,
    })
    const release = confined && (() => this.afterConfined(language, confined.finish))
    try {
      await client.start()
      return {client, release}
    } catch (error) {
      await release?.()
      return {failure: `${server} did not start: ${error instanceof Error ? error.message : String(error)}`}
    }
  }

  /** After a confined server is gone: what the sandbox removed that it made, told as a command's removals are. */
  private async afterConfined(language: LanguageSpec, finish: () => Promise<string[]>): Promise<void> {
    try {
      const removed = await finish()
      if (removed.length > 0)
        this.options.report(
          `the sandbox removed ${removed.join(', ')}: the ${language.name} language server made them where git or hanzo-dev would read them`,
        )
    } catch (error) {
      this.options.report(
        `the sandbox could not check what the ${language.name} language server made: ${(error as Error).message}`,
      )
    }
  }
}
