import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {SignJWT} from 'jose'
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
  const open = async (owner: string) =>
    BridgeClient.open(bridge.info.url, {origin: ORIGIN, token: await issuer.token(owner), via: 'protocol'})

  beforeAll(async () => {
    box = makeSandbox('hanzo-bridge-local-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    writeFileSync(join(box.home, 'model.json'), JSON.stringify(SCRIPT))
    issuer = await startJwksIssuer()
    const args = [
      'bridge',
      '--listen',
      '127.0.0.1:0',
      '--allow-origin',
      ORIGIN,
      '--jwks',
      issuer.url,
      '--issuer',
      ISSUER,
      '--audience',
      AUDIENCE,
    ]
    bridge = await startJsonLineServer([...args, '--fake-model', join(box.home, 'model.json')], {
      cwd: project,
      env: box.env,
    })
  })

  afterAll(async () => {
    await bridge?.stop()
    await issuer?.close()
    box?.cleanup()
  })

  it("refuses the in-process app server's flags next to --app, before anything starts", async () => {
    const result = await runCli(
      [
        'bridge',
        '--listen',
        '127.0.0.1:0',
        '--allow-origin',
        ORIGIN,
        '--app',
        'http://127.0.0.1:9',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--jwks',
        issuer.url,
      ],
      {cwd: project, env: box.env},
    )
    expect(result.exitCode).toBe(2)
    expect(unwrapped(result.stderr)).toContain('--base-url is for the app server the bridge runs itself, without --app')
  })

  it('refuses an upgrade from another origin or without a valid token', async () => {
    expect(
      (await refusedUpgrade(bridge.info.url, {origin: 'https://evil.example', token: await issuer.token('alice')}))
        .status,
    ).toBe(403)
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
    expect(
      (await runCli(['run', 'a local task', '--fake-model', join(box.home, 'run.json')], {cwd: project, env: box.env}))
        .exitCode,
    ).toBe(0)
    const listed = await runCli(['sessions', 'list', '--json'], {cwd: project, env: box.env})
    const local = (JSON.parse(listed.stdout) as {sessions: {id: string; first_prompt: string}[]}).sessions.find(
      (s) => s.first_prompt === 'a local task',
    )!
    const web = await open('alice')
    for (const method of ['session/read', 'session/resume'] as const) {
      expect((await web.request(method, {sessionId: local.id})).error, method).toMatchObject({code: -32_001})
    }

    expect((await web.request('session/list', {})).result.sessions.map((s) => s.sessionId)).not.toContain(local.id)
    await web.close()
  })
})

/**
 * Issue 36 item 1 ([security-3]): a web client with a valid token chose `cwd` (`/`, the config
 * dir, the sessions dir) and read the machine's API key, the bridge's own JWT secret and the
 * local user's transcripts with fs_read and fs_grep, which the shipped defaults allow. The
 * workspaces are now the operator's (`--workspace`), and hanzo-dev's own files and the bridge's
 * secret are out of every session's tools, with the sandbox off (the container default before).
 */
describe('hanzo-dev bridge: what a web client may reach (issue 36)', () => {
  const API_KEY = 'sk-test-secret-bridge-0123456789'
  const SECRET = 'bridge-jwt-secret-abcdefghijklmnopqrstuvwxyz-0123456789'
  let box: Sandbox
  let project: string
  let configDir: string
  let sessionsDir: string
  let narrow: JsonLineServer
  let wide: JsonLineServer

  const token = (owner: string) => {
    const now = Math.floor(Date.now() / 1000)
    return new SignJWT({exp: now + 600, iat: now, owner})
      .setProtectedHeader({alg: 'HS256'})
      .sign(new TextEncoder().encode(SECRET))
  }

  const open = async (server: JsonLineServer) =>
    BridgeClient.open(server.info.url, {origin: ORIGIN, token: await token('web'), via: 'protocol'})

  beforeAll(async () => {
    box = makeSandbox('hanzo-bridge-reach-')
    project = join(box.home, 'project')
    configDir = join(box.env.XDG_CONFIG_HOME, 'hanzo')
    sessionsDir = join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions')
    mkdirSync(join(project, '.git'), {recursive: true})
    mkdirSync(configDir, {recursive: true})
    writeFileSync(join(project, 'package.json'), '{}')
    writeFileSync(join(configDir, 'settings.json'), JSON.stringify({sandbox: {mode: 'off'}}))
    writeFileSync(join(configDir, 'credentials.json'), JSON.stringify({hanzo: {api_key: API_KEY}}), {mode: 0o600})
    writeFileSync(join(box.home, 'bridge.secret'), `${SECRET}\n`)
    writeFileSync(join(box.home, 'local.json'), JSON.stringify({turns: [{text: 'a local answer'}]}))
    expect(
      (
        await runCli(['run', 'my private local task', '--fake-model', join(box.home, 'local.json')], {
          cwd: project,
          env: box.env,
        })
      ).exitCode,
    ).toBe(0)
    const reads = [
      {arguments: {path: '.config/hanzo/credentials.json'}, name: 'fs_read'},
      {arguments: {path: 'bridge.secret'}, name: 'fs_read'},
      {arguments: {path: '.', pattern: 'sk-test|bridge-jwt|private local'}, name: 'fs_grep'},
      {arguments: {path: '.local/share/hanzo-dev', pattern: 'private'}, name: 'fs_grep'},
      {arguments: {pattern: '**/*.json*'}, name: 'fs_glob'},
    ]
    writeFileSync(join(box.home, 'model.json'), JSON.stringify({turns: [{tool_calls: reads}, {text: 'Looked.'}]}))
    const args = [
      'bridge',
      '--listen',
      '127.0.0.1:0',
      '--allow-origin',
      ORIGIN,
      '--jwt-secret-file',
      join(box.home, 'bridge.secret'),
      '--fake-model',
      join(box.home, 'model.json'),
    ]
    narrow = await startJsonLineServer(args, {cwd: project, env: box.env})
    wide = await startJsonLineServer([...args, '--workspace', box.home], {cwd: project, env: box.env})
  })

  afterAll(async () => {
    await narrow?.stop()
    await wide?.stop()
    box?.cleanup()
  })

  it('refuses a session on /, the config dir or the sessions dir: the workspaces are the operator’s', async () => {
    const web = await open(narrow)
    await web.request('initialize', {})
    for (const cwd of ['/', configDir, sessionsDir, box.home]) {
      const refused = await web.request('session/start', {cwd})
      expect(refused.error, cwd).toMatchObject({code: -32_602, data: {workspaces: [project]}})
      expect(refused.error!.message, cwd).toContain(`is outside the server's workspaces (${project})`)
    }

    expect((await web.request('session/start', {cwd: join(project, '.git')})).result).toMatchObject({
      cwd: join(project, '.git'),
    })
    await web.close()
  })

  it("keeps hanzo-dev's own files and the bridge's secret from the tools of a session whose workspace holds them", async () => {
    const web = await open(wide)
    await web.request('initialize', {})
    const {sessionId} = (await web.request('session/start', {cwd: box.home, permissionMode: 'deny'})).result
    const turn = (await web.request('turn/start', {input: 'look around', sessionId})).result
    await web.next('turn/completed', (p) => p.turnId === turn.turnId)
    const seen = JSON.stringify(web.all('item/completed'))
    expect(seen).toContain("where hanzo-dev keeps its settings, credentials, sessions or a server's secrets")
    for (const secret of [API_KEY, SECRET, 'my private local task']) expect(seen).not.toContain(secret)
    expect(seen).toContain('project/package.json') // fs_glob still lists the rest of the workspace.
    await web.close()
  })
})
