import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {HttpClient, offSchema, raw, type RpcTestClient, StdioClient} from '../helpers/app-server-client.js'
import {makeSandbox, REPO_ROOT, runCli, type Sandbox, spawnCli} from '../helpers/cli.js'
import {waitUntil} from '../helpers/processes.js'

const SECRET = 'sk-app-server-secret-0123456789'
const RESUMED_TURN = {
  expect: {last_user_contains: 'what did you do', tool_result_contains: 'not today'},
  text: 'I created approved.txt and left build alone.',
}

/** One session's turns: a call the client approves, one it denies, and a slow reply it interrupts. */
const SESSION: Script = {
  turns: [
    {
      expect: {last_user_contains: 'approved.txt', tools_include: ['exec']},
      text: 'Creating it.',
      tool_calls: [{arguments: {command: 'touch approved.txt'}, name: 'exec'}],
    },
    {
      expect: {has_tool_result_for: 'exec'},
      text: 'Created approved.txt.',
      usage: {cache_read_tokens: 800, input_tokens: 1000, output_tokens: 5},
    },
    {expect: {last_user_contains: 'remove build'}, tool_calls: [{arguments: {command: 'rm -rf build'}, name: 'exec'}]},
    {expect: {tool_result_contains: 'not today'}, text: 'I left build alone.'},
    {chunk_size: 4, delay_ms: 40, text: 'Once upon a time '.repeat(20)},
  ],
}

let box: Sandbox
let project: string
let scripts: {session: string; resume: string}

beforeAll(() => {
  box = makeSandbox('hanzo-app-server-')
  project = join(box.home, 'project')
  mkdirSync(join(project, 'build'), {recursive: true})
  mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
  writeFileSync(
    join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
    JSON.stringify({api_key: SECRET, max_turns: 9}),
  )
  const write = (name: string, script: Script) => {
    writeFileSync(join(box.home, name), JSON.stringify(script))
    return join(box.home, name)
  }

  scripts = {
    // A new server resumes the session: a new script, then a model error it survives.
    resume: write('resume.json', {turns: [RESUMED_TURN, {body: {message: 'The prompt is too long.'}, status: 400}]}),
    session: write('session.json', SESSION),
  }
})
afterAll(() => box.cleanup())

function audit(sessionId: string): Array<{tool_name: string; decision: string; reason?: string}> {
  const lines = readFileSync(join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
  return lines.map((line) => JSON.parse(line)).filter((record) => record.session_id === sessionId)
}

/** The scripted conversation, the same over either transport; returns the session's id. */
async function converse(client: RpcTestClient): Promise<string> {
  expect((await client.request('initialize', {clientInfo: {name: 'test'}})).result).toMatchObject({
    protocolVersion: 1,
    serverInfo: {name: 'hanzo-dev'},
  })
  const started = await client.request('session/start', {cwd: project, model: 'fake-model'})
  expect(started.result).toMatchObject({
    cwd: project,
    model: 'fake-model',
    permissionMode: 'prompt',
    tools: expect.arrayContaining(['exec', 'fs_read']),
  })
  const {sessionId} = started.result

  // A call the rules leave open: the client is asked, and approves.
  const first = (await client.request('turn/start', {input: 'create approved.txt', sessionId})).result.turnId
  await client.next('turn/started', (p) => p.turnId === first)
  const ask = await client.next('permission/request', (p) => p.turnId === first)
  expect(ask.params).toMatchObject({
    input: {command: 'touch approved.txt'},
    rules: ['exec(touch approved.txt)'],
    sessionId,
    title: 'touch approved.txt',
    toolName: 'exec',
  })
  await client.respond(ask.id!, {decision: 'allow'})
  const call = await client.next('item/completed', (p) => p.turnId === first && p.item.type === 'tool_call')
  expect(call.params.item).toMatchObject({
    command: 'touch approved.txt',
    exitCode: 0,
    input: {command: 'touch approved.txt'},
    kind: 'execute',
    name: 'exec',
    result: {isError: false},
    title: 'touch approved.txt',
  })
  expect((await client.next('turn/completed', (p) => p.turnId === first)).params).toMatchObject({
    finalOutput: 'Created approved.txt.',
    stopReason: 'completed',
    // What the prompt cache served is part of the turn's usage.
    usage: {cacheReadTokens: 800, outputTokens: expect.any(Number)},
  })
  expect(existsSync(join(project, 'approved.txt'))).toBe(true)
  const texts = client
    .all('item/completed', (p) => p.turnId === first && p.item.type === 'agent_message')
    .map((m) => ('text' in m.params.item ? m.params.item.text : ''))
  expect(texts).toEqual(['Creating it.', 'Created approved.txt.'])

  // The next call is denied: the model gets the reason, nothing runs.
  const second = (await client.request('turn/start', {input: 'now remove build', sessionId})).result.turnId
  const ask2 = await client.next('permission/request', (p) => p.turnId === second)
  await client.respond(ask2.id!, {decision: 'deny', reason: 'not today'})
  const denied = await client.next('item/completed', (p) => p.turnId === second && p.item.type === 'tool_call')
  expect(denied.params.item).toMatchObject({result: {isError: true}})
  expect((await client.next('turn/completed', (p) => p.turnId === second)).params).toMatchObject({
    finalOutput: 'I left build alone.',
    stopReason: 'completed',
  })
  expect(existsSync(join(project, 'build'))).toBe(true)
  expect(audit(sessionId).map((r) => [r.tool_name, r.decision])).toEqual([
    ['exec', 'allow'],
    ['exec', 'deny'],
  ])

  // A slow reply, interrupted once it streams; a second turn meanwhile is refused.
  const third = (await client.request('turn/start', {input: 'tell me a long story', sessionId})).result.turnId
  await client.next('item/delta', (p) => p.turnId === third)
  expect((await client.request('turn/start', {input: 'and another', sessionId})).error).toMatchObject({code: -32_003})
  expect((await client.request('turn/interrupt', {sessionId})).result).toEqual({interrupted: true})
  expect((await client.next('turn/completed', (p) => p.turnId === third)).params.stopReason).toBe('cancelled')
  expect((await client.request('turn/interrupt', {sessionId})).result).toEqual({interrupted: false})
  expect(offSchema(client)).toEqual([])
  return sessionId
}

describe('hanzo-dev app-server over stdio', () => {
  it('runs a session: approve, deny, interrupt; a new server lists, reads and resumes it', async () => {
    const server = new StdioClient(['--fake-model', scripts.session], {cwd: project, env: box.env})
    const sessionId = await converse(server)
    expect((await server.request('bogus/method')).error).toMatchObject({
      code: -32_601,
      message: expect.stringContaining('Unknown method bogus/method'),
    })
    expect((await server.request('turn/start', {sessionId})).error).toMatchObject({
      code: -32_602,
      message: expect.stringContaining('input: Invalid input'),
    })
    expect((await server.request('session/start', {cwd: 'relative/dir'})).error).toMatchObject({
      code: -32_602,
      message: expect.stringContaining('absolute path'),
    })
    expect((await server.request('tools/list', {sessionId: 'no-such-session'})).error).toMatchObject({code: -32_002})
    const config = await server.request('config/read', {cwd: project})
    expect(config.result).toMatchObject({config: {max_turns: 9}, projectRoot: project})
    expect(JSON.stringify(config)).not.toContain(SECRET)
    const tools = (await server.request('tools/list', {sessionId})).result.tools
    expect(tools.find((t) => t.name === 'exec')).toMatchObject({inputSchema: {type: 'object'}, mutating: true})
    await server.close()
    expect(server.child.exitCode).toBe(0)

    const next = new StdioClient(['--fake-model', scripts.resume], {cwd: project, env: box.env})
    const listed = (await next.request('session/list', {})).result.sessions
    expect(listed).toContainEqual(
      expect.objectContaining({firstPrompt: 'create approved.txt', live: false, projectRoot: project, sessionId}),
    )
    const read = (await next.request('session/read', {sessionId})).result
    expect(read.messages.flatMap((m) => (m.role === 'user' ? [m.content] : []))).toEqual([
      'create approved.txt',
      'now remove build',
      'tell me a long story',
    ])
    expect((await next.request('session/resume', {sessionId: sessionId.slice(0, 8)})).result).toMatchObject({
      cwd: project,
      sessionId,
    })
    const resumed = (await next.request('turn/start', {input: 'what did you do?', sessionId})).result.turnId
    expect((await next.next('turn/completed', (p) => p.turnId === resumed)).params).toMatchObject({
      finalOutput: 'I created approved.txt and left build alone.',
      stopReason: 'completed',
    })

    // A model error ends the turn, not the server.
    const failing = (await next.request('turn/start', {input: 'once more', sessionId})).result.turnId
    expect((await next.next('error', (p) => p.turnId === failing)).params.message).toContain('The prompt is too long.')
    expect((await next.next('turn/completed', (p) => p.turnId === failing)).params.stopReason).toBe('error')
    expect((await next.request('session/list', {limit: 1})).result.sessions).toEqual([
      expect.objectContaining({live: true, runs: 5, sessionId}),
    ])
    expect((await next.request('config/read', {})).result.projectRoot).toBe(project)
    expect(offSchema(next)).toEqual([])
    await next.close()
  })

  it('denies a permission request the client leaves unanswered past --permission-timeout', async () => {
    const server = new StdioClient(['--fake-model', scripts.session, '--permission-timeout', '1'], {
      cwd: project,
      env: box.env,
    })
    const {sessionId} = (await server.request('session/start', {})).result
    const turnId = (await server.request('turn/start', {input: 'create approved.txt', sessionId})).result.turnId
    const ask = await server.next('permission/request')
    expect(
      (await server.next('item/completed', (p) => p.turnId === turnId && p.item.type === 'tool_call')).params.item,
    ).toMatchObject({result: {isError: true}})
    // Too late: the answer is dropped, the server goes on.
    await server.respond(ask.id!, {decision: 'allow'})
    expect((await server.next('turn/completed', (p) => p.turnId === turnId)).params.stopReason).toBe('completed')
    expect(audit(sessionId)).toEqual([
      expect.objectContaining({
        decision: 'deny',
        reason: expect.stringContaining('did not answer the permission request within 1 s'),
        tool_name: 'exec',
      }),
    ])
    await server.close()
    expect(server.child.exitCode).toBe(0)
  })

  it('keeps sessions inside its --workspace directories, whatever cwd the client asks for (issue 36)', async () => {
    const other = join(box.home, 'other')
    mkdirSync(other, {recursive: true})
    mkdirSync(join(box.env.XDG_DATA_HOME, 'hanzo-dev'), {recursive: true})
    const server = new StdioClient(['--fake-model', scripts.session, '--workspace', project, '--workspace', other], {
      cwd: box.home,
      env: box.env,
    })
    for (const cwd of [
      '/',
      box.home,
      join(box.env.XDG_CONFIG_HOME, 'hanzo'),
      join(box.env.XDG_DATA_HOME, 'hanzo-dev'),
    ]) {
      const refused = await server.request('session/start', {cwd})
      expect(refused.error, cwd).toMatchObject({
        code: -32_602,
        data: {workspaces: [project, other]},
        message: expect.stringContaining(`outside the server's workspaces (${project}, ${other})`),
      })
      expect((await server.request('config/read', {cwd})).error, cwd).toMatchObject({code: -32_602})
    }

    // The server started outside its workspaces: a session that names none works in the first.
    expect((await server.request('session/start', {})).result).toMatchObject({cwd: project})
    expect((await server.request('session/start', {cwd: other})).result).toMatchObject({cwd: other})
    await server.close()
    const missing = await runCli(['app-server', '--workspace', join(box.home, 'nope')], {env: box.env})
    expect([missing.exitCode, missing.stderr]).toEqual([2, expect.stringContaining('nope')])
  })

  it('prints the JSON Schema committed in docs/', async () => {
    const result = await runCli(['app-server', '--print-schema'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual(
      JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'app-server.schema.json'), 'utf8')),
    )
  })

  it('runs the example client: it streams the answer and asks the person at the terminal', async () => {
    const example = join(REPO_ROOT, 'examples', 'app-server-client.mjs')
    const result = await spawnCli(['create approved.txt', '--', '--fake-model', scripts.session], {
      bin: example,
      cwd: project,
      env: box.env,
      input: 'n\n',
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain('Creating it.\n[exec touch approved.txt]\n')
    expect(result.stdout).toContain('Allow exec touch approved.txt? [y/a/N] ')
    expect(result.stdout).toMatch(/\(completed, \d+ tokens in, \d+ out\)$/)
  })

  it('refuses a --listen address that is not loopback', async () => {
    const result = await runCli(['app-server', '--listen', '0.0.0.0:8080'], {env: box.env})
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('binds 127.0.0.1 only')
  })
})

describe('hanzo-dev app-server --listen', () => {
  let server: ReturnType<typeof spawnCli>
  /** A model server all the sessions share, its turns taken in order (sessions close and reopen, the script goes on). */
  let model: FakeModel
  /** The session the first test started without an owner. */
  let unowned = ''
  let url: string
  const token = 'test-token-0123456789'
  const auth = {authorization: `Bearer ${token}`}

  beforeAll(async () => {
    const tokenFile = join(box.home, 'token')
    writeFileSync(tokenFile, `${token}\n`)
    model = await startFakeModel({
      turns: [
        ...SESSION.turns,
        RESUMED_TURN,
        {tool_calls: [{arguments: {command: 'touch approved.txt'}, name: 'exec'}]},
      ],
    })
    server = spawnCli(['app-server', '--listen', '127.0.0.1:0', '--token-file', tokenFile, '--base-url', model.url], {
      cwd: project,
      env: box.env,
      openStdin: true,
    })
    let out = ''
    server.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
    await waitUntil(() => out.includes('\n'), 'the server printed its address')
    const started = JSON.parse(out.split('\n')[0])
    expect(started).toEqual({token, url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/)})
    url = started.url
  })
  afterAll(async () => {
    server.kill('SIGTERM')
    await server
    await model.close()
  })

  it('runs the same session over HTTP; it closes with its connection, and a new one resumes it', async () => {
    const first = new HttpClient(url, auth)
    await first.open()
    const sessionId = await converse(first)
    unowned = sessionId
    await first.close()

    const second = new HttpClient(url, auth)
    await second.open()
    const listed = async () =>
      (await second.request('session/list', {})).result.sessions.find((s) => s.sessionId === sessionId)
    await waitUntil(async () => (await listed())?.live === false, 'the session closed with its connection')
    expect((await second.request('session/resume', {sessionId})).result).toMatchObject({sessionId})
    // A second window on the same session follows the turns the first starts.
    const watcher = new HttpClient(url, auth)
    await watcher.open()
    await watcher.request('session/resume', {sessionId})
    const turn = (await second.request('turn/start', {input: 'what did you do?', sessionId})).result.turnId
    const done = {finalOutput: 'I created approved.txt and left build alone.', stopReason: 'completed'}
    expect((await second.next('turn/completed', (p) => p.turnId === turn)).params).toMatchObject(done)
    expect((await watcher.next('turn/completed', (p) => p.turnId === turn)).params).toMatchObject(done)
    await watcher.close()
    await second.close()
  })

  it('refuses a wrong token, a foreign Host, an Origin, an unknown connection, a body too large or not JSON', async () => {
    const port = new URL(url).port
    expect((await raw(`${url}/events`)).status).toBe(401)
    expect((await raw(`${url}/events`, {headers: {authorization: 'Bearer wrong'}})).status).toBe(401)
    expect((await raw(`${url}/events`, {headers: {...auth, host: `evil.example:${port}`}})).status).toBe(403)
    expect((await raw(`${url}/events`, {headers: {...auth, origin: 'http://localhost:3000'}})).status).toBe(403)
    const unknown = await raw(`${url}/rpc`, {
      body: '{}',
      headers: {...auth, 'hanzo-connection': 'nope'},
      method: 'POST',
    })
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body)).toMatchObject({
      error: {message: expect.stringContaining('Unknown connection')},
      jsonrpc: '2.0',
    })
    expect((await raw(`${url}/nowhere`, {headers: auth})).status).toBe(404)

    const client = new HttpClient(url, auth)
    await client.open()
    expect((await client.post(Buffer.alloc(4 * 1024 * 1024 + 1, 32))).status).toBe(413)
    const notJson = await client.post('{"jsonrpc": ')
    expect(notJson.status).toBe(400)
    expect(JSON.parse(notJson.body)).toMatchObject({error: {code: -32_700}})
    expect((await client.post(JSON.stringify({jsonrpc: '2.0', method: 'initialized'}))).status).toBe(202)
    expect(JSON.parse((await client.post('[]')).body)).toMatchObject({error: {code: -32_600}})
    await client.close()
  })

  it("keeps each owner's sessions to that owner", async () => {
    const alice = new HttpClient(url, {...auth, 'hanzo-owner': 'alice'})
    const bob = new HttpClient(url, {...auth, 'hanzo-owner': 'bob'})
    await alice.open()
    await bob.open()
    const {sessionId} = (await alice.request('session/start', {})).result
    expect((await alice.request('session/list', {})).result.sessions.map((s) => s.sessionId)).toEqual([sessionId])
    expect((await bob.request('session/list', {})).result.sessions).toEqual([])
    for (const [method, params] of [
      ['turn/start', {input: 'hi', sessionId}],
      ['session/read', {sessionId}],
      ['session/resume', {sessionId}],
      ['tools/list', {sessionId}],
    ] as const) {
      expect((await bob.request(method, params)).error, method).toEqual({
        code: -32_001,
        message: `session ${sessionId} belongs to another owner`,
      })
    }

    expect(
      (await alice.post(JSON.stringify({id: 1, jsonrpc: '2.0', method: 'initialize'}), {'hanzo-owner': 'bob'})).status,
    ).toBe(403)

    // A session without an owner is the local user's: no owner lists, reads or resumes it, and a
    // prefix of an id is answered with the prefix only.
    for (const method of ['session/resume', 'session/read'] as const) {
      expect((await alice.request(method, {sessionId: unowned})).error, method).toEqual({
        code: -32_001,
        message: `session ${unowned} belongs to another owner`,
      })
    }

    expect((await bob.request('session/read', {sessionId: sessionId.slice(0, 8)})).error).toEqual({
      code: -32_001,
      message: `session ${sessionId.slice(0, 8)} belongs to another owner`,
    })
    expect((await alice.request('session/list', {})).result.sessions.map((s) => s.sessionId)).toEqual([sessionId])
    await alice.close()
    await bob.close()
  })

  it('denies a pending permission request, and interrupts the turn, when the event stream closes', async () => {
    const client = new HttpClient(url, auth)
    await client.open()
    const {sessionId} = (await client.request('session/start', {})).result
    await client.request('turn/start', {input: 'create approved.txt', sessionId})
    await client.next('permission/request')
    await client.close()
    await waitUntil(
      () => existsSync(join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'audit.jsonl')) && audit(sessionId).length > 0,
      'the call was decided',
    )
    expect(audit(sessionId)).toEqual([
      expect.objectContaining({
        decision: 'deny',
        reason: expect.stringMatching(/disconnected|interrupted/),
        tool_name: 'exec',
      }),
    ])
  })
})
