import {existsSync, mkdirSync, rmSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:net'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import type {Turn} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {makeSandbox, runCli} from '../helpers/cli.js'
import {bwrapWorks, processesWith} from '../helpers/processes.js'

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address() as {port: number}
      server.close(() => resolve(port))
    })
  })
}

interface ToolResultEvent {
  type: string
  name?: string
  is_error?: boolean
  output?: string
}

/**
 * `exec` with `background: true`, `exec_output` and `exec_kill`, run by the built CLI with a
 * scripted model. The home is under /var/tmp: the sandbox gives commands a private /tmp.
 */
describe('hanzo-dev run: background commands', () => {
  let home: string
  let env: Record<string, string>
  let project: string
  let model: FakeModel | undefined
  let marker: string
  beforeEach(() => {
    ;({env, home} = makeSandbox('hanzo-e2e-background-', '/var/tmp'))
    project = join(home, 'proj')
    mkdirSync(project)
    mkdirSync(join(home, '.config', 'hanzo'), {recursive: true})
    marker = `bg-marker-${process.pid}-${Date.now()}`
  })
  afterEach(async () => {
    await model?.close()
    model = undefined
    for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL')
    rmSync(home, {force: true, recursive: true})
  })

  const userSettings = (settings: Record<string, unknown>) =>
    writeFileSync(join(home, '.config', 'hanzo', 'settings.json'), JSON.stringify(settings))
  const run = async (turns: Turn[]) => {
    model = await startFakeModel({turns: [...turns, {text: 'Done.'}]})
    const result = await runCli(
      ['run', 'serve', '--base-url', model.url, '--permission-mode', 'allow-all', '--output-format', 'stream-json'],
      {cwd: project, env},
    )
    const results = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as ToolResultEvent)
      .filter((event) => event.type === 'tool_result')
    return {...result, results}
  }

  it('starts an HTTP server, reads what it logs, kills it with everything it started, and no process is left', async () => {
    userSettings({sandbox: {mode: 'off'}})
    const port = await freePort()
    const server = `require('http').createServer((q, r) => { console.log('got ' + q.url); r.end('hi') }).listen(${port}, '127.0.0.1', () => console.log('listening ${port}'))`
    // A child of the server too: the kill must end the whole group.
    const command = `(sleep 1000; true) & node -e "${server}" ${marker}`
    // Until the server listens, whenever that is: tests never count on timings.
    const get = `const get = () => fetch('http://127.0.0.1:${port}/hello').then((r) => r.text()).then(console.log, () => setTimeout(get, 50)); get()`
    const fetch = `node -e "${get}"`
    const result = await run([
      {tool_calls: [{arguments: {background: true, command}, name: 'exec'}]},
      {tool_calls: [{arguments: {command: fetch}, name: 'exec'}]},
      {tool_calls: [{arguments: {id: 'bg1', wait_ms: 30_000}, name: 'exec_output'}]},
      {tool_calls: [{arguments: {id: 'bg1'}, name: 'exec_kill'}]},
      {tool_calls: [{arguments: {id: 'bg1'}, name: 'exec_output'}]},
      {tool_calls: [{arguments: {id: 'bg7'}, name: 'exec_output'}]},
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    const [started, fetched, logged, killed, after, unknown] = result.results
    expect(started.is_error).toBe(false)
    expect(started.output).toMatch(/^started in the background as bg1[^]*status: running/)
    expect(fetched.output).toContain('hi')
    // Read once: what the start showed is not shown again.
    expect(`${started.output}${logged.output}`.split(`listening ${port}`)).toHaveLength(2)
    expect(logged.output).toContain('status: running')
    expect(logged.output).toContain('got /hello')
    expect(killed.output).toMatch(/^bg1 ended: killed by SIG(TERM|KILL)/)
    expect(after.output).toMatch(/status: killed by SIG(TERM|KILL)/)
    expect(unknown.is_error).toBe(true)
    expect(JSON.stringify(unknown)).toContain('no background command \\"bg7\\" in this session (its ids: bg1)')
    expect(processesWith(marker)).toEqual([])
  })

  it('ends what still runs in the background when the session closes', async () => {
    userSettings({sandbox: {mode: 'off'}})
    const result = await run([
      {
        tool_calls: [
          {arguments: {background: true, command: `echo up; sleep 1000 # ${marker}`}, name: 'exec'},
          {arguments: {background: true, command: `sleep 1001 # ${marker}`}, name: 'exec'},
        ],
      },
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.results.map((r) => r.output)).toEqual([
      expect.stringMatching(/^started in the background as bg1[^]*status: running[^]*up/),
      expect.stringContaining('started in the background as bg2'),
    ])
    expect(processesWith(marker)).toEqual([])
  })

  it.skipIf(!bwrapWorks())('runs a background command under the sandbox, as any command', async () => {
    userSettings({sandbox: {mode: 'workspace'}})
    const outside = join(home, 'outside')
    mkdirSync(outside)
    const command = `touch ${outside}/escaped 2>/dev/null || echo write-refused; touch inside; echo ready; sleep 1000 # ${marker}`
    const result = await run([
      {tool_calls: [{arguments: {background: true, command}, name: 'exec'}]},
      {tool_calls: [{arguments: {id: 'bg1', wait_ms: 30_000}, name: 'exec_output'}]},
      {tool_calls: [{arguments: {id: 'bg1'}, name: 'exec_kill'}]},
    ])
    expect(result.exitCode, result.stderr).toBe(0)
    const output = result.results.map((r) => r.output).join('\n')
    expect(output).toContain('write-refused')
    expect(output).toContain('ready')
    expect(output).toContain('[sandbox: commands run under bubblewrap')
    expect(existsSync(join(outside, 'escaped'))).toBe(false)
    expect(existsSync(join(project, 'inside'))).toBe(true)
    expect(processesWith(marker)).toEqual([])
  })
})
