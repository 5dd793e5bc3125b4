import {type ChildProcess, spawn} from 'node:child_process'

import {CLI} from './mcp-fixtures.js'

export interface ServedHttp {
  process: ChildProcess
  url: string
  token: string
}

/** `hanzo-dev mcp serve --http 0 ...args` started in cwd, once it has printed its URL and token. */
export async function startServeHttp(
  cwd: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<ServedHttp> {
  const child = spawn(process.execPath, [CLI, 'mcp', 'serve', '--http', '0', ...args], {
    cwd,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  return new Promise((resolve, reject) => {
    let seen = ''
    child.once('exit', (code) => reject(new Error(`mcp serve exited (${code}) before it listened:\n${seen}`)))
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      const found = /MCP server: (\S+)\nAuthorization: Bearer (\S+)/.exec(seen)
      if (found) resolve({process: child, token: found[2], url: found[1]})
    })
  })
}
