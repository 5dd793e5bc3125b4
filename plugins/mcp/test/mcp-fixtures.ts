import {type ChildProcess, spawn} from 'node:child_process'
import {mkdtemp, rm} from 'node:fs/promises'
import {createServer} from 'node:net'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'

import {host} from '../../../src/host.js'
import type {McpServerEntry} from '../src/server-config.js'
import {openSessionServers} from '../src/session-servers.js'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
export const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')
export const FILESYSTEM = join(ROOT, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')
export const CLI = join(ROOT, 'bin/run.js')

/** The host the plugin is handed: the core's own. */
export const library = host

export function stdioEverything(name = 'everything', extra: Partial<McpServerEntry> = {}): McpServerEntry {
  return {
    disabled: false,
    name,
    transport: {args: [EVERYTHING, 'stdio'], command: process.execPath, type: 'stdio'},
    ...extra,
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as {port: number}
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

/** server-everything over HTTP (`streamableHttp` or the older `sse`), up once it says it listens. */
export async function httpEverything(
  mode: 'streamableHttp' | 'sse',
): Promise<{url: string; close(): Promise<void>; process: ChildProcess}> {
  const port = await freePort()
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: {...process.env, PORT: String(port)},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  await new Promise<void>((resolve, reject) => {
    let seen = ''
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (/listening|running/i.test(seen)) resolve()
    })
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited ${code}: ${seen}`)))
  })
  return {
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      }),
    process: child,
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
  }
}

export async function tempDir(): Promise<{dir: string; remove(): Promise<void>}> {
  const dir = await mkdtemp(join(tmpdir(), 'hanzo-mcp-'))
  return {dir, remove: () => rm(dir, {force: true, recursive: true})}
}

export function servers(entries: McpServerEntry[], dataDir: string, warnings: string[] = []) {
  return openSessionServers(entries, {
    cwd: dataDir,
    dataDir,
    env: process.env,
    library,
    settings: {},
    warn: (m) => warnings.push(m),
  })
}
