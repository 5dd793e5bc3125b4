import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {type JWTPayload, SignJWT} from 'jose'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {raw} from '../helpers/app-server-client.js'
import {makeSandbox, type Sandbox} from '../helpers/cli.js'
import {AUDIENCE, ISSUER, type JwksIssuer, startJwksIssuer, unsignedToken} from '../helpers/jwks-issuer.js'
import {waitUntil} from '../helpers/processes.js'
import {BridgeClient, type JsonLineServer, refusedUpgrade, startJsonLineServer} from '../helpers/ws-client.js'

const ORIGIN = 'https://chat.hanzo.ai'
const MAX_MESSAGE_BYTES = 65_536

/** The model's side of the happy path: a write (which asks permission), then a reply once it ran. */
const SCRIPT = {
  turns: [
    {
      text: 'I will write the greeting.',
      chunk_size: 5,
      tool_calls: [{name: 'fs_write', arguments: {path: 'hello.txt', content: 'hello from the web\n'}}],
    },
    {expect: {has_tool_result_for: 'fs_write'}, text: 'Done: hello.txt holds the greeting.', chunk_size: 4},
  ],
}

// The bridge as a web UI meets it: the built CLI's `bridge` in front of the built CLI's
// `app-server --listen`, a JWKS on 127.0.0.1 standing in for Hanzo IAM, and `ws` clients.
describe('hanzo-dev bridge', () => {
  let box: Sandbox
  let project: string
  let issuer: JwksIssuer
  let app: JsonLineServer
  let bridge: JsonLineServer
  let url: string
  const tokensUsed: string[] = []

  /** Starts a bridge in front of `appUrl` (the app server's token in a file), with the test's JWKS. */
  async function startBridge(appServer: JsonLineServer, ...extra: string[]): Promise<JsonLineServer> {
    const tokenFile = join(box.home, `app-token-${appServer.child.pid}`)
    writeFileSync(tokenFile, `${appServer.info.token}\n`)
    const args = [
      'bridge',
      '--listen',
      '127.0.0.1:0',
      '--app',
      appServer.info.url,
      '--app-token-file',
      tokenFile,
      '--allow-origin',
      ORIGIN,
      '--allow-origin',
      'http://localhost:3000',
    ]
    return startJsonLineServer(
      [
        ...args,
        '--jwks',
        issuer.url,
        '--issuer',
        ISSUER,
        '--audience',
        AUDIENCE,
        '--max-message-bytes',
        String(MAX_MESSAGE_BYTES),
        ...extra,
      ],
      {cwd: project, env: box.env},
    )
  }

  const startApp = () =>
    startJsonLineServer(['app-server', '--listen', '127.0.0.1:0', '--fake-model', join(box.home, 'model.json')], {
      cwd: project,
      env: box.env,
    })

  const token = async (owner: string | undefined, claims?: JWTPayload) => {
    const made = await issuer.token(owner, claims)
    tokensUsed.push(made)
    return made
  }

  const open = async (owner: string, via: 'header' | 'protocol' = 'header') =>
    BridgeClient.open(url, {origin: ORIGIN, token: await token(owner), via})

  beforeAll(async () => {
    box = makeSandbox('hanzo-bridge-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    writeFileSync(join(box.home, 'model.json'), JSON.stringify(SCRIPT))
    issuer = await startJwksIssuer()
    app = await startApp()
    bridge = await startBridge(app)
    url = bridge.info.url
  })

  afterAll(async () => {
    await bridge?.stop()
    await app?.stop()
    await issuer?.close()
    box?.cleanup()
  })

  describe('refuses upgrades', () => {
    it('an Origin not on the allow-list, or none: 403', async () => {
      const valid = await token('alice')
      const hostile = [
        undefined,
        'https://evil.example',
        'https://chat.hanzo.ai.evil.example',
        'http://chat.hanzo.ai',
        'https://chat.hanzo.ai:8443',
        'null',
        'https://evil.example/https://chat.hanzo.ai',
        'chrome-extension://chat.hanzo.ai',
      ]
      for (const origin of hostile) {
        const refusal = await refusedUpgrade(url, {origin, token: valid})
        expect(refusal.status, `origin ${origin}`).toBe(403)
      }
    })

    it('a missing, malformed, expired or not yet valid JWT: 401 with a Bearer challenge', async () => {
      const now = Math.floor(Date.now() / 1000)
      const cases: [string, string | undefined, string][] = [
        ['missing', undefined, 'no token'],
        ['garbage', 'not.a.jwt', 'malformed'],
        ['expired', await token('alice', {exp: now - 600, iat: now - 1200}), 'expired'],
        ['no exp', await token('alice', {exp: undefined}), '"exp"'],
        ['not yet valid', await token('alice', {nbf: now + 600}), '"nbf"'],
        ['wrong issuer', await token('alice', {iss: 'https://evil.example'}), '"iss"'],
        ['wrong audience', await token('alice', {aud: 'another-service'}), '"aud"'],
        ['alg none', unsignedToken('alice'), 'algorithm'],
        ['wrong key', await issuer.foreignToken('alice'), 'signature'],
        ['HS256 (alg confusion)', await hs256Token('alice'), 'algorithm'],
        ['no owner', await token(undefined), '"owner"'],
        ['owner not a string', await token(undefined, {owner: ['alice', 'bob']}), '"owner"'],
        ['owner with a line break', await token('alice\r\nHanzo-Owner: bob'), '"owner"'],
      ]
      for (const [name, jwt, reason] of cases) {
        if (jwt) tokensUsed.push(jwt)
        const refusal = await refusedUpgrade(url, {origin: ORIGIN, token: jwt})
        expect(refusal.status, name).toBe(401)
        expect(refusal.wwwAuthenticate, name).toBe('Bearer error="invalid_token"')
        expect(refusal.body, name).toContain(reason)
      }
    })

    it('the same through the ["bearer", JWT] subprotocols, and two different tokens at once', async () => {
      const foreign = await issuer.foreignToken('alice')
      expect((await refusedUpgrade(url, {origin: ORIGIN, protocols: ['bearer', foreign]})).status).toBe(401)
      expect((await refusedUpgrade(url, {origin: ORIGIN, protocols: ['bearer']})).status).toBe(401)
      const both = await refusedUpgrade(url, {
        origin: ORIGIN,
        protocols: ['bearer', await token('bob')],
        token: await token('alice'),
      })
      expect(both.status).toBe(401)
      expect(both.body).toContain('different tokens')
    })

    it('a plain HTTP request gets 426, a malformed upgrade 400', async () => {
      const http = url.replace('ws:', 'http:')
      expect((await raw(http)).status).toBe(426)
      // Passes the Origin and the token, but is no WebSocket handshake (no Sec-WebSocket-Key).
      const malformed = await raw(http, {
        headers: {
          authorization: `Bearer ${await token('alice')}`,
          connection: 'Upgrade',
          origin: ORIGIN,
          upgrade: 'websocket',
        },
      })
      expect(malformed.status).toBe(400)
    })
  })

  describe('an accepted client', () => {
    it('is closed with 1003 for a binary frame', async () => {
      const client = await open('alice')
      client.sendFrame(Buffer.from('{"jsonrpc":"2.0","id":1,"method":"initialize"}'))
      expect((await client.closed).code).toBe(1003)
    })

    it('is closed with 1009 for a frame over --max-message-bytes', async () => {
      const client = await open('alice')
      client.sendFrame(
        JSON.stringify({
          id: 1,
          jsonrpc: '2.0',
          method: 'initialize',
          params: {clientInfo: {name: 'x'.repeat(MAX_MESSAGE_BYTES), version: '1'}},
        }),
      )
      expect((await client.closed).code).toBe(1009)
    })

    it('gets JSON-RPC errors for frames that are not one message, and stays open', async () => {
      const client = await open('alice')
      const answered = async (check: (m: (typeof client.received)[number]) => boolean, what: string) => {
        await waitUntil(() => client.received.some(check), what)
        return client.received.find(check)!
      }

      client.sendFrame('{"jsonrpc": "2.0", "id": 1, "method": ')
      expect((await answered((m) => m.error?.code === -32_700, 'a parse error')).id).toBeNull()
      client.sendFrame(JSON.stringify([{id: 2, jsonrpc: '2.0', method: 'initialize'}]))
      expect((await answered((m) => m.error?.code === -32_600, 'an invalid request')).error!.message).toContain(
        'batches are not supported',
      )
      client.sendFrame(JSON.stringify({id: 3, method: 'initialize'}))
      expect((await answered((m) => m.id === 3, 'the answer to id 3')).error!.code).toBe(-32_600)
      expect((await client.request('initialize', {clientInfo: {name: 'web', version: '1'}})).result).toMatchObject({
        serverInfo: {name: 'hanzo-dev'},
      })
      await client.close()
    })

    it("refuses another owner's session, whatever the client's messages say", async () => {
      const alice = await open('alice')
      await alice.request('initialize', {})
      const {sessionId} = (await alice.request('session/start', {cwd: project})).result
      const mallory = await open('mallory', 'protocol')
      await mallory.request('initialize', {})
      for (const [method, params] of [
        ['session/read', {sessionId}],
        ['turn/start', {input: 'read the secrets', sessionId}],
        ['session/resume', {sessionId}],
      ] as const) {
        const answer = await mallory.request(method, params)
        expect(answer.error, method).toMatchObject({code: -32_001})
      }

      // Nor by the start of its id: the bridge forwards whole ids only, so none can be guessed.
      const guessed = await mallory.request('turn/start', {input: 'read the secrets', sessionId: sessionId.slice(0, 4)})
      expect(guessed.error).toMatchObject({code: -32_602})
      expect(guessed.error!.message).not.toContain(sessionId)
      const listed = (await mallory.request('session/list', {})).result
      expect(listed.sessions.map((s) => s.sessionId)).not.toContain(sessionId)
      // An owner in the message is not an owner: only the verified JWT's claim counts.
      expect((await mallory.request('session/read', {owner: 'alice', sessionId})).error).toBeDefined()
      await alice.close()
      await mallory.close()
    })
  })

  it('drives a full agent session: prompt, streamed answer, a permission request answered', async () => {
    // A browser cannot set headers: the token rides in the subprotocols, the bridge answers "bearer".
    const web = await open('alice', 'protocol')
    expect(web.ws.protocol).toBe('bearer')
    expect((await web.request('initialize', {clientInfo: {name: 'chat.hanzo.ai', version: '1'}})).result).toMatchObject(
      {protocolVersion: 1},
    )
    const session = (await web.request('session/start', {cwd: project, permissionMode: 'prompt'})).result
    const turn = (
      await web.request('turn/start', {input: 'write a greeting to hello.txt', sessionId: session.sessionId})
    ).result

    const ask = await web.next('permission/request')
    expect(ask.params).toMatchObject({sessionId: session.sessionId, toolName: 'fs_write', turnId: turn.turnId})
    expect(existsSync(join(project, 'hello.txt'))).toBe(false)
    await web.respond(ask.id!, {decision: 'allow'})

    const done = await web.next('turn/completed', (p) => p.turnId === turn.turnId)
    expect(done.params).toMatchObject({finalOutput: 'Done: hello.txt holds the greeting.', stopReason: 'completed'})
    const deltas = web.all('item/delta', (p) => p.turnId === turn.turnId).map((m) => m.params.text)
    expect(deltas.length).toBeGreaterThan(2)
    expect(deltas.join('')).toContain('Done: hello.txt holds the greeting.')
    expect(readFileSync(join(project, 'hello.txt'), 'utf8')).toBe('hello from the web\n')
    await web.close()
    expect((await web.closed).code).toBe(1005)
  })

  it('never writes a token to its log', () => {
    const log = bridge.stderr()
    expect(log).toContain('refused')
    for (const used of tokensUsed) expect(log).not.toContain(used)
    expect(log).not.toContain(app.info.token)
  })

  // A bridge of its own: it pings every second (a busy machine must not drop the other tests'
  // clients), and its app server is stopped.
  describe('keepalive, and an app server that goes away', () => {
    let ownApp: JsonLineServer
    let ownBridge: JsonLineServer

    beforeAll(async () => {
      ownApp = await startApp()
      ownBridge = await startBridge(ownApp, '--ping-interval', '1')
    })

    afterAll(async () => {
      await ownBridge?.stop()
      await ownApp?.stop()
    })

    it('is dropped when it stops answering pings', async () => {
      const silent = await BridgeClient.open(ownBridge.info.url, {
        autoPong: false,
        origin: ORIGIN,
        token: await token('alice'),
      })
      expect((await silent.closed).code).toBe(1006)
    })

    it('closes its sockets with 1011, and refuses new ones with 502', async () => {
      const client = await BridgeClient.open(ownBridge.info.url, {origin: ORIGIN, token: await token('alice')})
      await client.request('initialize', {})
      await ownApp.stop()
      expect(await client.closed).toEqual({code: 1011, reason: 'app server gone'})
      const refusal = await refusedUpgrade(ownBridge.info.url, {origin: ORIGIN, token: await token('alice')})
      expect(refusal.status).toBe(502)
    })
  })
})

/** A token "signed" with HS256: refused by a bridge that verifies with a JWKS, whatever the key. */
function hs256Token(owner: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({aud: AUDIENCE, exp: now + 600, iat: now, iss: ISSUER, owner})
    .setProtectedHeader({alg: 'HS256', kid: 'test-key-1'})
    .sign(new TextEncoder().encode('k'.repeat(32)))
}
