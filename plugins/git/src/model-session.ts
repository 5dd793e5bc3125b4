import {type AgentSession, type Host, isUserError, loadHost} from '@hanzo-dev/sdk'

import {GitError} from './git-cli.js'

/** How the message is written: the model flags `run` has, where they mean the same. */
export interface ModelChoice {
  model?: string
  baseURL?: string
  /** A model script to replay (tests, demos). */
  fakeModel?: string
}

/** A session that writes text: no tools offered or run, nothing saved as a session; the user's provider, credentials and hooks. */
export interface MessageWriter {
  /** Runs `work` with the "Thinking…" spinner on a terminal's stderr. */
  thinking<T>(work: (session: AgentSession) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export async function openMessageWriter(
  config: {root: string},
  options: ModelChoice & {
    cwd: string
    env: Readonly<Record<string, string | undefined>>
    systemPrompt: string
    warn(message: string): void
  },
): Promise<MessageWriter> {
  let host: Host
  let session: AgentSession
  try {
    host = await loadHost(config)
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
    if (!isUserError(error)) throw error
    throw new GitError(error.message, {exitCode: error.exitCode, hint: error.hint})
  }

  const spinner = await host.output.spinner(process.stderr)
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
