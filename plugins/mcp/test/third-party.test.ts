import {type ChildProcess, spawn} from 'node:child_process'
import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {execa} from 'execa'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {CLI} from './mcp-fixtures.js'

// Clients that are not ours, from plugins/mcp/test/serve-clients (its own package:
// `npm ci --prefix plugins/mcp/test/serve-clients`, which .ci/run does).
const HERE = fileURLToPath(new URL('.', import.meta.url))
const BIN = join(HERE, 'serve-clients', 'node_modules', '.bin')
const INSPECTOR = join(BIN, 'mcp-inspector')

describe('third-party MCP clients', () => {
  let box: Sandbox
  let project: string
  const env = () => ({...box.env, PATH: process.env.PATH!})

  beforeAll(() => {
    if (!existsSync(INSPECTOR))
      throw new Error(`${INSPECTOR} is missing: run npm ci --prefix plugins/mcp/test/serve-clients`)
    box = makeSandbox('hanzo-mcp-3p-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    writeFileSync(join(project, 'notes.txt'), 'seen by the inspector\n')
  })
  afterAll(() => box.cleanup())

  it('the MCP Inspector (CLI mode) lists and calls the tools of mcp serve over stdio', async () => {
    const inspect = (args: string[]) =>
      execa(INSPECTOR, ['--cli', process.execPath, CLI, 'mcp', 'serve', ...args], {
        cwd: project,
        env: env(),
        extendEnv: false,
        reject: false,
      })
    const list = await inspect(['--method', 'tools/list'])
    expect(JSON.parse(list.stdout).tools.map((t: {name: string}) => t.name)).toEqual([
      'fs_read',
      'fs_write',
      'fs_edit',
      'fs_multi_edit',
      'fs_list',
      'fs_glob',
      'fs_grep',
      'exec',
      'exec_output',
      'exec_kill',
    ])
    const call = await inspect(['--method', 'tools/call', '--tool-name', 'fs_read', '--tool-arg', 'path=notes.txt'])
    expect(JSON.parse(call.stdout)).toMatchObject({
      _meta: {'hanzo-dev/verdict': {decision: 'allow'}},
      content: [{text: expect.stringContaining('seen by the inspector')}],
      isError: false,
    })
  })

  describe('over HTTP', () => {
    let server: ChildProcess
    let url: string
    let token: string

    beforeAll(async () => {
      server = spawn(process.execPath, [CLI, 'mcp', 'serve', '--http', '0'], {
        cwd: project,
        env: env(),
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      await new Promise<void>((resolve) => {
        let seen = ''
        server.stderr!.on('data', (chunk: Buffer) => {
          seen += chunk.toString()
          const found = /MCP server: (\S+)\nAuthorization: Bearer (\S+)/.exec(seen)
          if (found) {
            ;[, url, token] = found
            resolve()
          }
        })
      })
    })
    afterAll(() => {
      server?.kill('SIGTERM')
    })

    it('the MCP Inspector calls mcp serve --http with the bearer token', async () => {
      const call = await execa(
        INSPECTOR,
        [
          '--cli',
          url,
          '--transport',
          'http',
          '--header',
          `Authorization: Bearer ${token}`,
          '--method',
          'tools/call',
          '--tool-name',
          'exec',
          '--tool-arg',
          'command=echo over-http',
        ],
        {reject: false},
      )
      expect(JSON.parse(call.stdout)).toMatchObject({
        _meta: {'hanzo-dev/verdict': {decision: 'ask'}},
        content: [{text: expect.stringContaining('over-http')}],
      })
    })
  })
})
