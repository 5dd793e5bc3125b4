import {stat} from 'node:fs/promises'
import {homedir} from 'node:os'
import {join, resolve} from 'node:path'
import {canonicalize, isInside} from '@hanzo-dev/sdk'
import {printable} from '@hanzo-dev/sdk/terminal-text'
import type {Config} from '@oclif/core'

import {openAgentSession} from '../../adapters/agent-session/index.js'
import {CheckpointStore} from '../../adapters/checkpoints/store.js'
import {loadSettings} from '../../adapters/host-context.js'
import {SessionStore} from '../../adapters/session-store.js'
import {UserError} from '../../core/errors.js'
import {resolvePaths} from '../../core/paths.js'
import {loopbackPort, randomToken, readSecretLine} from '../loopback-guard.js'
import {AppServer} from './app-server.js'
import {SavedSessions} from './saved-sessions.js'
import {SessionOwners} from './session-owners.js'

export interface AppServerSetup {
  cliConfig: Config
  /** Where the server was started: a session that names no cwd works here (or in the first workspace when this is outside them). */
  cwd: string
  /** The operator's workspace roots (`--workspace`): a session's cwd must be inside one. Default: `cwd`. */
  workspaces?: readonly string[]
  /** Files the server was given that hold its secrets (a token, a JWT key): no session's tool reads them. */
  secretFiles?: readonly string[]
  env: Readonly<Record<string, string | undefined>>
  permissionTimeoutMs: number
  /** An OpenAI-compatible /v1 base URL for every session (default: the settings'). */
  baseURL?: string
  /** A model script every session replays (the hidden `--fake-model`). */
  fakeModel?: string
  log(message: string): void
}

/** The app server's methods over sessions from openAgentSession, whatever carries them (its own transports, or a bridge in the same process). */
export async function createAppServer(setup: AppServerSetup): Promise<AppServer> {
  const {cliConfig, env, log} = setup
  const warn = (message: string) => log(`Warning: ${message}`)
  const {dataDir} = resolvePaths(env, homedir())
  const roots = await workspaceRoots(setup.workspaces ?? [setup.cwd])
  const cwd = await canonicalize(setup.cwd)
  return new AppServer({
    cwd: roots.some((root) => isInside(root, cwd)) ? cwd : roots[0],
    log,
    openSession: (request) =>
      openAgentSession({
        baseURL: setup.baseURL,
        cliConfig,
        cwd: request.cwd,
        env,
        fakeModel: setup.fakeModel,
        hiddenPaths: setup.secretFiles,
        model: request.model,
        permissionMode: request.permissionMode,
        prompter: request.prompter,
        session: request.resume === undefined ? undefined : {fork: request.fork, resume: request.resume},
        warn,
      }),
    owners: await SessionOwners.load(join(dataDir, 'app-server', 'owners.json'), warn),
    permissionTimeoutMs: setup.permissionTimeoutMs,
    roots,
    saved: new SavedSessions(SessionStore.at(dataDir), warn),
    stores: {checkpoints: CheckpointStore.at(dataDir), sessions: SessionStore.at(dataDir)},
    settings: (cwd) => loadSettings({cwd, env}),
    version: cliConfig.version,
  })
}

export interface StartAppServerOptions extends Omit<AppServerSetup, 'log'> {
  /** `127.0.0.1:PORT` or `localhost:PORT`: HTTP + SSE instead of stdio. */
  listen?: string
  tokenFile?: string
  /** Resolves when the server should stop (SIGINT, SIGTERM). */
  stop: Promise<void>
  stdin: NodeJS.ReadableStream
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
}

/** Runs `hanzo-dev app-server` until its input ends (stdio) or `stop` resolves, then closes every session. */
export async function startAppServer(options: StartAppServerOptions): Promise<void> {
  const port = options.listen === undefined ? undefined : loopbackPort(options.listen, 'the app server')
  const token = port === undefined ? undefined : await serverToken(options.tokenFile, options.env)
  const secretFiles = [...(options.secretFiles ?? []), ...(options.tokenFile === undefined ? [] : [options.tokenFile])]
  const server = await createAppServer({
    ...options,
    log: (message) => void options.stderr.write(`${printable(message)}\n`),
    secretFiles,
  })
  try {
    if (port === undefined || token === undefined) {
      const {serveStdio} = await import('./stdio-transport.js')
      await Promise.race([serveStdio(server, options.stdin as never, options.stdout as never), options.stop])
      return
    }

    const {serveHttp} = await import('./http-transport.js')
    const http = await serveHttp(server, {port, token}).catch((error: NodeJS.ErrnoException) => {
      throw new UserError(
        error.code === 'EADDRINUSE' ? `Port ${port} is in use` : `Cannot listen on 127.0.0.1:${port}: ${error.message}`,
        {hint: 'pick another port, or --listen 127.0.0.1:0 for any free one'},
      )
    })
    options.stdout.write(`${JSON.stringify({url: http.url, token})}\n`)
    await options.stop
    await http.close()
  } finally {
    await server.close()
  }
}

/**
 * The `--workspace` directories, canonical (a symlink cannot later move a root), each checked to
 * be a directory: a typo must not leave the server with no usable workspace.
 */
export async function workspaceRoots(paths: readonly string[]): Promise<string[]> {
  const roots: string[] = []
  for (const path of paths) {
    const root = await canonicalize(resolve(path))
    if (!(await stat(root).catch(() => undefined))?.isDirectory())
      throw new UserError(`--workspace ${path} is not a directory`, {
        exitCode: 2,
        hint: 'give a directory sessions may work in (repeatable)',
      })
    roots.push(root)
  }

  return roots
}

/** --token-file's first line, else HANZO_APP_SERVER_TOKEN, else a random token (printed at start). */
async function serverToken(
  tokenFile: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string> {
  if (tokenFile === undefined) return env.HANZO_APP_SERVER_TOKEN?.trim() || randomToken()
  return readSecretLine(tokenFile, '--token-file')
}
