import {mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {StdioClient} from '../helpers/app-server-client.js'
import {makeSandbox, runCli} from '../helpers/cli.js'
import {isAlive, processesWith} from '../helpers/processes.js'

/** Whether a live process is left in process group `pgid` (a zombie runs nothing). */
function groupAlive(pgid: number): boolean {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .some((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
        // After the command's name: state, ppid, pgrp.
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
        return Number(pgrp) === pgid && state !== 'Z'
      } catch {
        return false
      }
    })
}

/**
 * A background server the model starts, reads and leaves running: the session's end kills it and
 * everything it started, through `run --output-format stream-json` and the app server alike.
 */
describe('background commands end with the session', () => {
  let home: string
  let env: Record<string, string>
  let project: string
  let model: FakeModel | undefined
  let marker: string
  beforeEach(() => {
    ;({env, home} = makeSandbox('hanzo-e2e-bg-end-', '/var/tmp'))
    project = join(home, 'proj')
    mkdirSync(project)
    mkdirSync(join(home, '.config', 'hanzo'), {recursive: true})
    writeFileSync(join(home, '.config', 'hanzo', 'settings.json'), JSON.stringify({sandbox: {mode: 'off'}}))
    marker = `bg-end-${process.pid}-${Date.now()}`
  })
  afterEach(async () => {
    await model?.close()
    model = undefined
    for (const pid of processesWith(marker)) process.kill(pid, 'SIGKILL')
    rmSync(home, {force: true, recursive: true})
  })

  // The shell leads the group (its $$); the server (and a sleeping child of the shell) are in it.
  const server = `require('http').createServer((q, r) => r.end('hi')).listen(0, '127.0.0.1', function () { console.log('server ' + process.pid + ' listening ' + this.address().port) })`
  const command = () => `echo group $$; (sleep 1000; true) & node -e "${server}" ${marker}`
  const script = (): Script => ({
    turns: [
      {tool_calls: [{arguments: {background: true, command: command()}, name: 'exec'}]},
      {tool_calls: [{arguments: {id: 'bg1', wait_ms: 30_000}, name: 'exec_output'}]},
      {expect: {tool_result_contains: 'listening'}, text: 'The server runs.'},
    ],
  })
  /** The group and the server's pid, from what the command wrote (in the start's or the read's output). */
  const pids = (outputs: string) => ({
    group: Number(/group (\d+)/.exec(outputs)![1]),
    server: Number(/server (\d+) listening/.exec(outputs)![1]),
  })

  it('run --output-format stream-json: started, read, killed with its group when the run ends', async () => {
    model = await startFakeModel(script())
    const result = await runCli(
      ['run', 'serve', '--base-url', model.url, '--permission-mode', 'allow-all', '--output-format', 'stream-json'],
      {cwd: project, env},
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const events = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as {type: string; output?: string})
    const outputs = events.filter((event) => event.type === 'tool_result').map((event) => event.output ?? '')
    expect(outputs[0]).toMatch(/^started in the background as bg1/)
    expect(outputs.join('\n')).toContain('status: running')
    const {group, server} = pids(outputs.join('\n'))
    expect(isAlive(server)).toBe(false)
    expect(groupAlive(group)).toBe(false)
    expect(processesWith(marker)).toEqual([])
  })

  it.each([
    ['its client closes stdin', (client: StdioClient) => client.close()],
    [
      'it gets SIGTERM',
      async (client: StdioClient) => {
        client.child.kill('SIGTERM')
        await client.child.catch(() => undefined)
      },
    ],
  ])('app server: the server outlives the turn, and is killed with its group when %s', async (_, stop) => {
    const file = join(home, 'serve.json')
    writeFileSync(file, JSON.stringify({model: 'fake-model', ...script()}))
    const client = new StdioClient(['--fake-model', file], {cwd: project, env})
    await client.request('initialize', {clientInfo: {name: 'test'}})
    const {sessionId} = (
      await client.request('session/start', {cwd: project, model: 'fake-model', permissionMode: 'allow-all'})
    ).result
    const {turnId} = (await client.request('turn/start', {input: 'serve', sessionId})).result
    const completed = await client.next('turn/completed', (p) => p.turnId === turnId)
    expect(JSON.stringify(completed.params)).not.toContain('"error"')
    const results = client
      .all('item/completed', (p) => p.turnId === turnId && p.item.type === 'tool_call')
      .map((m) => JSON.stringify(m.params.item))
    expect(results[0]).toContain('started in the background as bg1')
    const {group, server} = pids(results.join('\n').replaceAll('\\n', '\n'))
    // Between turns the session, and what it runs in the background, lives on.
    expect(isAlive(server)).toBe(true)
    await stop(client)
    expect(isAlive(server)).toBe(false)
    expect(groupAlive(group)).toBe(false)
    expect(processesWith(marker)).toEqual([])
  })
})
