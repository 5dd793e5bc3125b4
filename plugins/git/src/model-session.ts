import {type AgentSession, type HostLibrary, loadHostLibrary} from '@hanzo-dev/sdk'

import {GitError} from './git-cli.js'

/** How the message is written: the model flags `run` has, where they mean the same. */
export interface ModelChoice {
  model?: string
  baseURL?: string
  /** A model script to replay (tests, demos). */
  fakeModel?: string
}

interface Spinner {
  start(): void
  stop(): void
}

interface MessageHost extends HostLibrary {
  makeStyle?(stream: NodeJS.WriteStream): unknown
  terminalSpinner?(stream: NodeJS.WriteStream, style: unknown): Promise<Spinner | undefined>
}

/** A session that writes text: no tools offered or run, nothing saved as a session; the user's provider, credentials and hooks. */
export interface MessageWriter {
  /** Runs `work` with the "Thinking…" spinner on a terminal's stderr. */
  thinking<T>(work: (session: AgentSession) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export async function openMessageWriter(
  config: {root: string},
  options: ModelChoice & {cwd: string; env: Readonly<Record<string, string | undefined>>; systemPrompt: string; warn(message: string): void},
): Promise<MessageWriter> {
  const host = (await loadHostLibrary(config)) as MessageHost
  if (typeof host.openAgentSession !== 'function') throw new GitError(`the hanzo-dev at ${config.root} has no agent session API; update hanzo-dev`)
  let session: AgentSession
  try {
    session = await host.openAgentSession({
      baseURL: options.baseURL,
      cliConfig: config,
      cwd: options.cwd,
      env: options.env,
      fakeModel: options.fakeModel,
      model: options.model,
      permissionMode: 'deny',
      session: {record: false},
      systemPrompt: options.systemPrompt,
      tools: 'none',
      warn: options.warn,
    })
  } catch (error) {
    if (!(error instanceof Error) || !['UserError', 'ConfigError'].includes(error.name)) throw error
    const {exitCode, hint} = error as Error & {hint?: string; exitCode?: number}
    throw new GitError(error.message, {exitCode, hint})
  }

  const spinner = host.terminalSpinner && host.makeStyle ? await host.terminalSpinner(process.stderr, host.makeStyle(process.stderr)) : undefined
  return {
    close: () => session.close(),
    async thinking(work) {
      spinner?.start()
      try {
        return await work(session)
      } finally {
        spinner?.stop()
      }
    },
  }
}
