import {mkdtempSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {classifyClientFrame} from '../../../../src/server/bridge/client-frames.js'
import {upgradeToken} from '../../../../src/server/bridge/jwt.js'
import {parseAppUrl, parseListen, resolveAppToken, resolveJwtKeys} from '../../../../src/server/bridge/options.js'
import {canonicalOrigin, OriginAllowList} from '../../../../src/server/bridge/origins.js'

describe('OriginAllowList', () => {
  const list = new OriginAllowList(['https://Chat.Hanzo.ai:443', 'http://localhost:3000'])

  it('compares canonical origins: case and default ports do not matter, scheme and host do', () => {
    expect(list.origins).toEqual(['https://chat.hanzo.ai', 'http://localhost:3000'])
    for (const ok of [
      'https://chat.hanzo.ai',
      'https://CHAT.hanzo.ai',
      'https://chat.hanzo.ai:443',
      'http://localhost:3000',
    ])
      expect(list.allows(ok), ok).toBe(true)
    const hostile = [
      undefined,
      '',
      'null',
      'http://chat.hanzo.ai',
      'https://chat.hanzo.ai.evil.example',
      'https://evil.example',
      'http://localhost:3001',
      'http://127.0.0.1:3000',
      'https://chat.hanzo.ai/',
      'https://x@chat.hanzo.ai',
      'file://chat.hanzo.ai',
    ]
    for (const bad of hostile) expect(list.allows(bad), String(bad)).toBe(false)
  })

  it('refuses entries that are not origins, and an empty list', () => {
    for (const bad of [
      '*',
      'chat.hanzo.ai',
      'https://chat.hanzo.ai/app',
      'https://chat.hanzo.ai/',
      'ftp://chat.hanzo.ai',
    ]) {
      expect(() => new OriginAllowList([bad]), bad).toThrow(/is not an origin/)
    }

    expect(() => new OriginAllowList([])).toThrow(/No origin is allowed/)
    expect(canonicalOrigin('https://[::1]:8443')).toBe('https://[::1]:8443')
  })
})

describe('upgradeToken', () => {
  it('takes the token from the Authorization header or after the "bearer" subprotocol', () => {
    expect(upgradeToken({authorization: 'Bearer a.b.c'})).toEqual({token: 'a.b.c'})
    expect(upgradeToken({authorization: 'bearer a.b.c'})).toEqual({token: 'a.b.c'})
    expect(upgradeToken({'sec-websocket-protocol': 'bearer, a.b.c'})).toEqual({token: 'a.b.c'})
    expect(upgradeToken({authorization: 'Bearer a.b.c', 'sec-websocket-protocol': 'bearer, a.b.c'})).toEqual({
      token: 'a.b.c',
    })
  })

  it('refuses no token, another scheme, a bare "bearer", two different tokens and a huge one', () => {
    expect(upgradeToken({}).error).toContain('no token')
    expect(upgradeToken({authorization: 'Basic dXNlcjpwYXNz'}).error).toContain('not "Bearer <JWT>"')
    expect(upgradeToken({'sec-websocket-protocol': 'bearer'}).error).toContain('not followed by a token')
    expect(upgradeToken({authorization: 'Bearer a.b.c', 'sec-websocket-protocol': 'bearer, x.y.z'}).error).toContain(
      'different tokens',
    )
    expect(upgradeToken({authorization: `Bearer ${'a'.repeat(9000)}`}).error).toContain('over 8192')
  })
})

describe('classifyClientFrame', () => {
  it('forwards one JSON-RPC request, notification or response as sent', () => {
    const request = '{"jsonrpc":"2.0","id":7,"method":"session/list","params":{}}'
    expect(classifyClientFrame(request)).toEqual({forward: request, requestId: 7})
    expect(classifyClientFrame('{"jsonrpc":"2.0","method":"initialized"}')).toEqual({
      forward: '{"jsonrpc":"2.0","method":"initialized"}',
    })
    expect(classifyClientFrame('{"jsonrpc":"2.0","id":"s1","result":{"decision":"allow"}}')).toEqual({
      forward: '{"jsonrpc":"2.0","id":"s1","result":{"decision":"allow"}}',
    })
  })

  it('forwards whole session ids only: a prefix would let one owner find sessions by guessing', () => {
    const whole =
      '{"jsonrpc":"2.0","id":1,"method":"session/read","params":{"sessionId":"142FD200-762e-43d5-9a80-1f7b37996e65"}}'
    expect(classifyClientFrame(whole)).toEqual({forward: whole, requestId: 1})
    const prefix = classifyClientFrame('{"jsonrpc":"2.0","id":2,"method":"session/read","params":{"sessionId":"142f"}}')
    expect(JSON.parse((prefix as {reply: string}).reply)).toMatchObject({error: {code: -32_602}, id: 2})
  })

  it('answers anything else with a JSON-RPC error, keeping a usable id', () => {
    const reply = (text: string) => {
      const frame = classifyClientFrame(text)
      if (!('reply' in frame)) throw new Error(`forwarded: ${text}`)
      return JSON.parse(frame.reply) as {id: unknown; error: {code: number}}
    }

    expect(reply('{"jsonrpc":')).toMatchObject({error: {code: -32_700}, id: null})
    expect(reply('[{"jsonrpc":"2.0","id":1,"method":"x"}]')).toMatchObject({error: {code: -32_600}, id: null})
    expect(reply('"hello"')).toMatchObject({error: {code: -32_600}})
    expect(reply('{"id":4,"method":"x"}')).toMatchObject({error: {code: -32_600}, id: 4})
    expect(reply('{"jsonrpc":"2.0","id":{"a":1},"method":"x"}')).toMatchObject({error: {code: -32_600}, id: null})
    expect(reply('{"jsonrpc":"2.0","id":5,"method":""}')).toMatchObject({error: {code: -32_600}, id: 5})
    expect(reply('{"jsonrpc":"2.0","id":6,"method":"x","params":3}')).toMatchObject({error: {code: -32_600}, id: 6})
    expect(reply('{"jsonrpc":"2.0","id":8}')).toMatchObject({error: {code: -32_600}, id: 8})
  })
})

describe('bridge options', () => {
  it('listens on 127.0.0.1 only', () => {
    expect(parseListen('127.0.0.1:0')).toEqual({host: '127.0.0.1', port: 0})
    expect(parseListen('8787')).toEqual({host: '127.0.0.1', port: 8787})
    expect(parseListen('localhost:8787')).toEqual({host: '127.0.0.1', port: 8787})
    expect(() => parseListen('0.0.0.0:8787')).toThrow(/127.0.0.1 only/)
    expect(() => parseListen('127.0.0.1:99999')).toThrow(/not HOST:PORT/)
  })

  it('talks to an app server on loopback http only', () => {
    expect(parseAppUrl('http://127.0.0.1:8765/').href).toBe('http://127.0.0.1:8765/')
    expect(() => parseAppUrl('http://app.example:8765')).toThrow(/not an http URL on 127.0.0.1/)
    expect(() => parseAppUrl('nope')).toThrow(/not a URL/)
  })

  it('needs a JWKS (https, or http on loopback) or a secret of 32+ bytes, never quoting the secret', async () => {
    expect(await resolveJwtKeys({jwks: 'https://iam.hanzo.ai/jwks'})).toEqual({
      jwks: new URL('https://iam.hanzo.ai/jwks'),
    })
    await expect(resolveJwtKeys({jwks: 'http://iam.hanzo.ai/jwks'})).rejects.toThrow(/not https/)
    await expect(resolveJwtKeys({})).rejects.toThrow(/needs a way to verify JWTs/)
    const dir = mkdtempSync(join(tmpdir(), 'hanzo-bridge-opts-'))
    writeFileSync(join(dir, 'short'), 'hunter2\n')
    const short = await resolveJwtKeys({'jwt-secret-file': join(dir, 'short')}).catch((error: Error) => error)
    expect(String(short)).toContain('shorter than 32 bytes')
    expect(String(short)).not.toContain('hunter2')
    writeFileSync(join(dir, 'good'), `${'s'.repeat(40)}\nignored\n`)
    expect(await resolveJwtKeys({'jwt-secret-file': join(dir, 'good')})).toEqual({
      secret: new TextEncoder().encode('s'.repeat(40)),
    })
    await expect(resolveJwtKeys({'jwt-secret-file': join(dir, 'missing')})).rejects.toThrow(
      /Cannot read --jwt-secret-file .* \(ENOENT\)/,
    )
  })

  it("takes the app server's token from a file or HANZO_APP_SERVER_TOKEN", async () => {
    expect(await resolveAppToken(undefined, {HANZO_APP_SERVER_TOKEN: ' tok '})).toBe('tok')
    await expect(resolveAppToken(undefined, {})).rejects.toThrow(/needs the app server's token/)
  })
})
