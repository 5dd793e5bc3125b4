import {type ChildProcess, spawn} from 'node:child_process'
import {createWriteStream, mkdirSync, type WriteStream} from 'node:fs'
import {dirname} from 'node:path'
import type {Transport} from '@modelcontextprotocol/sdk/shared/transport.js'
import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'
import {terminateGroup} from '@hanzo-dev/sdk'

import {StdioLineReader} from './stdio-lines.js'

/**
 * What a server process inherits from ours besides its own `env`: enough to find programs and
 * run, never the model's API keys or tokens the user exported for something else.
 */
const INHERITED_ENV = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
]

export interface StdioMcpTransportOptions {
  command: string
  args: string[]
  env?: Record<string, string>
  cwd: string
  /** The process's stderr is appended here (created with its directory); it is the first place to look when a server fails. */
  logFile: string
  parentEnv: Readonly<Record<string, string | undefined>>
}

/**
 * HIP-301 StdioMcpTransport: the server as a child process in its own process group, so that
 * closing ends it and everything it started (an `npx` wrapper and its node), with stderr kept
 * in a per-server log instead of on the user's terminal.
 */
export class StdioMcpTransport implements Transport {
  onclose?: () => void
  onerror?: (error: Error) => void
  onmessage?: (message: JSONRPCMessage) => void
  /** How the process ended (`code 1`, `signal SIGKILL`), once it has: a crash's hint says it, not a timeout's. */
  exited?: string
  private child?: ChildProcess
  private log?: WriteStream
  private readonly lines = new StdioLineReader({
    error: (error) => this.onerror?.(error),
    message: (message) => this.onmessage?.(message),
  })

  constructor(private readonly options: StdioMcpTransportOptions) {}

  get pid(): number | undefined {
    return this.child?.pid
  }

  async start(): Promise<void> {
    const {args, command, cwd, env, logFile, parentEnv} = this.options
    mkdirSync(dirname(logFile), {mode: 0o700, recursive: true})
    this.log = createWriteStream(logFile, {flags: 'a', mode: 0o600})
    this.log.write(`--- ${new Date().toISOString()} ${command}\n`)
    const inherited = Object.fromEntries(
      INHERITED_ENV.flatMap((key) => (parentEnv[key] === undefined ? [] : [[key, parentEnv[key]]])),
    )
    await new Promise<void>((resolve, reject) => {
      const child = spawn(command, args, {
        cwd,
        detached: true,
        env: {...inherited, ...env},
        stdio: ['pipe', 'pipe', 'pipe'],
      })
      this.child = child
      child.once('error', (error) => {
        reject(error)
        this.onerror?.(error)
      })
      child.once('spawn', () => resolve())
      child.once('close', (code, signal) => {
        this.log?.end(`--- exited ${signal ?? code}\n`)
        this.exited = signal ? `signal ${signal}` : `code ${code}`
        this.child = undefined
        this.onclose?.()
      })
      child.stdin?.on('error', (error) => this.onerror?.(error))
      child.stdout?.on('data', (chunk: Buffer) => this.lines.push(chunk))
      child.stderr?.pipe(this.log!, {end: false})
    })
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin
    if (!stdin) throw new Error('the server process is not running')
    await new Promise<void>((resolve) => {
      if (stdin.write(`${JSON.stringify(message)}\n`)) resolve()
      else stdin.once('drain', resolve)
    })
  }

  /** Ends the stdin, then the whole group, what the server started included: TERM, and KILL after a grace period. */
  async close(): Promise<void> {
    const child = this.child
    if (!child?.pid) return
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()))
    child.stdin?.end()
    await terminateGroup(child.pid)
    await exited
  }
}
