import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox, unwrapped} from '../helpers/cli.js'
import {AUDIENCE, ISSUER, type JwksIssuer, startJwksIssuer} from '../helpers/jwks-issuer.js'
import {BridgeClient, type JsonLineServer, refusedUpgrade, startJsonLineServer} from '../helpers/ws-client.js'

const ORIGIN = 'http://localhost:3000'
const SCRIPT = {
  turns: [
    {text: 'I will write it.', tool_calls: [{arguments: {content: 'local\n', path: 'local.txt'}, name: 'fs_write'}]},
    {expect: {has_tool_result_for: 'fs_write'}, text: 'Written.'},
  ],
}

// `hanzo-dev bridge` without --app: the app server runs in the bridge's process. The same checks
// on every upgrade, the same methods and owner scoping; no HTTP hop and no app token between them.
describe('hanzo-dev bridge with the app server in its own process', () => {
  let box: Sandbox
  let project: string
  let issuer: JwksIssuer
  let bridge: JsonLineServer
  const open = async (owner: string) => BridgeClient.open(bridge.info.url, {origin: ORIGIN, token: await issuer.token(owner), via: 'protocol'})

  beforeAll(async () => {
    box = makeSandbox('hanzo-bridge-local-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    writeFileSync(join(box.home, 'model.json'), JSON.stringify(SCRIPT))
    issuer = await startJwksIssuer()
    const args = ['bridge', '--listen', '127.0.0.1:0', '--allow-origin', ORIGIN, '--jwks', issuer.url, '--issuer', ISSUER, '--audience', AUDIENCE]
    bridge = await startJsonLineServer([...args, '--fake-model', join(box.home, 'model.json')], {cwd: project, env: box.env})
  })

  afterAll(async () => {
    await bridge?.stop()
    await issuer?.close()
    box?.cleanup()
  })

  it("refuses the in-process app server's flags next to --app, before anything starts", async () => {
    const result = await runCli(['bridge', '--listen', '127.0.0.1:0', '--allow-origin', ORIGIN, '--app', 'http://127.0.0.1:9', '--base-url', 'http://127.0.0.1:9/v1', '--jwks', issuer.url], {cwd: project, env: box.env})
    expect(result.exitCode).toBe(2)
    expect(unwrapped(result.stderr)).toContain('--base-url is for the app server the bridge runs itself, without --app')
  })

  it('refuses an upgrade from another origin or without a valid token', async () => {
    expect((await refusedUpgrade(bridge.info.url, {origin: 'https://evil.example', token: await issuer.token('alice')})).status).toBe(403)
    expect((await refusedUpgrade(bridge.info.url, {origin: ORIGIN})).status).toBe(401)
  })

  it('drives a session with a permission answered, and keeps it from other owners', async () => {
    const web = await open('alice')
    expect((await web.request('initialize', {})).result).toMatchObject({serverInfo: {name: 'hanzo-dev'}})
    const {sessionId} = (await web.request('session/start', {cwd: project})).result
    const turn = (await web.request('turn/start', {input: 'write local.txt', sessionId})).result
    const ask = await web.next('permission/request')
    expect(ask.params).toMatchObject({sessionId, toolName: 'fs_write'})
    await web.respond(ask.id!, {decision: 'allow'})
    const done = await web.next('turn/completed', (p) => p.turnId === turn.turnId)
    expect(done.params).toMatchObject({finalOutput: 'Written.', stopReason: 'completed'})
    expect(readFileSync(join(project, 'local.txt'), 'utf8')).toBe('local\n')

    const mallory = await open('mallory')
    expect((await mallory.request('session/read', {sessionId})).error).toMatchObject({code: -32_001})
    expect((await mallory.request('session/list', {})).result.sessions).toEqual([])
    await mallory.close()
    await web.close()
  })

  it("never reaches the machine's own sessions (saved without an owner)", async () => {
    writeFileSync(join(box.home, 'run.json'), JSON.stringify({turns: [{text: 'a local answer'}]}))
    expect((await runCli(['run', 'a local task', '--fake-model', join(box.home, 'run.json')], {cwd: project, env: box.env})).exitCode).toBe(0)
    const listed = await runCli(['sessions', 'list', '--json'], {cwd: project, env: box.env})
    const local = (JSON.parse(listed.stdout) as {sessions: {id: string; first_prompt: string}[]}).sessions.find((s) => s.first_prompt === 'a local task')!
    const web = await open('alice')
    for (const method of ['session/read', 'session/resume'] as const) {
      expect((await web.request(method, {sessionId: local.id})).error, method).toMatchObject({code: -32_001})
    }

    expect((await web.request('session/list', {})).result.sessions.map((s) => s.sessionId)).not.toContain(local.id)
    await web.close()
  })
})
