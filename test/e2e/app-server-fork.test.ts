import {createHash} from 'node:crypto'
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {offSchema, StdioClient} from '../helpers/app-server-client.js'
import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js'

let box: Sandbox
let project: string
const script = (name: string, turns: Script['turns']) => {
  const path = join(box.home, `${name}.json`)
  writeFileSync(path, JSON.stringify({turns}))
  return path
}

beforeAll(() => {
  box = makeSandbox('hanzo-app-fork-')
  project = join(box.home, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'greeting.txt'), 'hello world\n')
})
afterAll(() => box.cleanup())

describe('hanzo-dev app-server: session/resume with fork', () => {
  it('opens a new session from a copy of the saved conversation and leaves the saved one as it was', async () => {
    const first = script('first', [
      {tool_calls: [{arguments: {path: 'greeting.txt'}, name: 'fs_read'}]},
      {text: 'It says hello world.'},
    ])
    const ran = await runCli(
      [
        'run',
        'read greeting.txt',
        '--fake-model',
        first,
        '--permission-mode',
        'allow-reads',
        '--output-format',
        'json',
      ],
      {cwd: project, env: box.env},
    )
    expect(ran.exitCode, ran.stderr).toBe(0)
    const sessionId = JSON.parse(ran.stdout).session_id as string
    const server = new StdioClient(
      [
        '--fake-model',
        // The fork's request carries the saved conversation: the greeting's tool result, then the new prompt.
        script('fork', [
          {expect: {last_user_contains: 'which word', tool_result_contains: 'hello world'}, text: 'It was hello.'},
        ]),
      ],
      {cwd: project, env: box.env},
    )
    const saved = (await server.request('session/list', {})).result.sessions[0]
    expect(saved.sessionId).toBe(sessionId)
    const path = (
      JSON.parse((await runCli(['sessions', 'list', '--json'], {cwd: project, env: box.env})).stdout) as {
        sessions: {path: string}[]
      }
    ).sessions[0].path
    const before = createHash('sha256').update(readFileSync(path)).digest('hex')

    const forked = (await server.request('session/resume', {fork: true, sessionId: sessionId.slice(0, 8)})).result
    expect(forked).toMatchObject({cwd: project})
    expect(forked.sessionId).not.toBe(sessionId)
    const turn = (await server.request('turn/start', {input: 'which word?', sessionId: forked.sessionId})).result.turnId
    expect((await server.next('turn/completed', (p) => p.turnId === turn)).params).toMatchObject({
      finalOutput: 'It was hello.',
      stopReason: 'completed',
    })

    expect(createHash('sha256').update(readFileSync(path)).digest('hex')).toBe(before)
    const read = (await server.request('session/read', {sessionId: forked.sessionId})).result
    expect(read.messages.flatMap((m) => (m.role === 'user' ? [m.content] : []))).toEqual([
      'read greeting.txt',
      'which word?',
    ])
    // A live session forks too, from what it saved: another new session.
    const again = (await server.request('session/resume', {fork: true, sessionId: forked.sessionId})).result
    expect([sessionId, forked.sessionId]).not.toContain(again.sessionId)
    expect((await server.request('session/list', {})).result.sessions.map((s) => s.sessionId)).toEqual(
      expect.arrayContaining([sessionId, forked.sessionId]),
    )
    expect(offSchema(server)).toEqual([])
    await server.close()
    expect(server.child.exitCode).toBe(0)
  })
})
