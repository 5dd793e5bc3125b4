import {createServer, request, type Server} from 'node:http'
import {readFileSync, writeFileSync} from 'node:fs'
import type {AddressInfo} from 'node:net'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox, unwrapped} from '../../../test/helpers/cli.js'
import {
  AUTHORIZE_URL,
  credentialsFile,
  startLogin,
  storedCredentials,
  writeUserSettings,
} from '../../../test/support/oauth/cli-login.js'
import {HeadlessBrowser} from '../../../test/support/oidc/browser.js'
import {type OidcServer, startOidcServer} from '../../../test/support/oidc/server.js'
import {httpEverything} from './mcp-fixtures.js'

/**
 * A remote MCP server behind OAuth, as MCP's authorization spec has it: server-everything behind
 * a gate that accepts only tokens the local oidc-provider issued for this server's URL (RFC 8707
 * audience), answers anything else 401 with the RFC 9728 metadata's address, and serves that metadata.
 * With `stepUp` set it wants more: a good token gets 403 `insufficient_scope` naming those scopes.
 */
async function protectedServer(
  upstream: string,
  oidc: () => OidcServer,
): Promise<{url: string; close(): Promise<void>; stepUp?: string}> {
  const server: Server = createServer((req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const metadataPath = '/.well-known/oauth-protected-resource/mcp'
    if (req.url === metadataPath) {
      res.writeHead(200, {'content-type': 'application/json'})
      res.end(
        JSON.stringify({
          authorization_servers: [oidc().issuer],
          resource: `${base}/mcp`,
          scopes_supported: ['mcp:tools', 'offline_access'],
        }),
      )
      return
    }

    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1]
    void (token ? oidc().provider.AccessToken.find(token) : Promise.resolve(undefined)).then((found) => {
      if (!found || found.isExpired || found.aud !== `${base}/mcp`) {
        res.writeHead(401, {
          'www-authenticate': `Bearer resource_metadata="${base}${metadataPath}", scope="mcp:tools offline_access"`,
        })
        res.end()
        return
      }

      if (gate.stepUp) {
        res.writeHead(403, {'www-authenticate': `Bearer error="insufficient_scope", scope="${gate.stepUp}"`})
        res.end()
        return
      }

      const headers = {...req.headers}
      delete headers.authorization
      delete headers.host
      const forward = request(`${upstream}${req.url}`, {headers, method: req.method}, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      forward.on('error', () => res.destroy())
      req.pipe(forward)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const gate: {url: string; close(): Promise<void>; stepUp?: string} = {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
  }
  return gate
}

/** A pre-registered confidential client the authorization server takes only with HTTP Basic. */
const BASIC_CLIENT = {clientId: 'hanzo-dev-confidential', clientSecret: 'basic-only-secret'}

// One authorization server, one protected server-everything and one home for the file: the
// tests follow a user from "needs a login" through login, use and logout.
describe('hanzo-dev mcp login: a remote server behind the local oidc-provider', () => {
  let box: Sandbox
  let oidc: OidcServer
  let upstream: Awaited<ReturnType<typeof httpEverything>>
  let gate: Awaited<ReturnType<typeof protectedServer>>
  const cli = (args: string[]) => runCli(args, {cwd: box.home, env: box.env})
  /** What `mcp tools` says about the server, on either stream. */
  const toolsSay = async () => {
    const {exitCode, stderr, stdout} = await cli(['mcp', 'tools', 'remote'])
    return {exitCode, text: `${stdout}\n${unwrapped(stderr)}`}
  }

  beforeAll(async () => {
    box = makeSandbox('hanzo-mcp-oauth-')
    upstream = await httpEverything('streamableHttp')
    gate = await protectedServer(upstream.url.replace(/\/mcp$/, ''), () => oidc)
    oidc = await startOidcServer({
      basicClient: BASIC_CLIENT,
      registration: true,
      resourceServers: {[gate.url]: 'mcp:tools'},
    })
    writeUserSettings(box, {mcp_servers: {remote: {url: gate.url}}})
  }, 60_000)
  afterAll(async () => {
    await Promise.all([gate?.close(), upstream?.close(), oidc?.close()])
    box?.cleanup()
  })

  it('says the server needs a login, and how', async () => {
    const {exitCode, text} = await toolsSay()
    expect(exitCode).toBe(1)
    expect(text).toContain('MCP server "remote" needs you to log in')
    expect(text).toContain('hanzo-dev mcp login remote')
  })

  it('logs in (discovery, client registration, PKCE with the resource), then its tools work', async () => {
    const login = startLogin(['remote', '--no-browser'], box, {}, ['mcp', 'login'])
    const authorize = new URL((await login.read(AUTHORIZE_URL))[1])
    expect(authorize.searchParams.get('resource')).toBe(gate.url)
    login.paste((await new HeadlessBrowser().approveAuthorization(authorize, {account: 'ada'})).href)
    const end = await login.result
    expect([end.exitCode, end.stderr]).toEqual([0, expect.any(String)])
    expect(end.stdout).toMatch(/^Logged in to MCP server remote .*stored in /m)

    const stored = storedCredentials(box)['mcp:remote']
    expect(stored).toMatchObject({resource: gate.url, type: 'oauth'})
    const tools = await cli(['mcp', 'tools', 'remote', '--json'])
    expect(tools.exitCode).toBe(0)
    expect(JSON.stringify(JSON.parse(tools.stdout))).toContain('echo')
  }, 60_000)

  it('a token for another resource is never sent: the server moved, so it needs a login again', async () => {
    writeUserSettings(box, {mcp_servers: {remote: {url: gate.url.replace(/\/mcp$/, '/other')}}})
    expect((await toolsSay()).text).toContain('needs you to log in')
    writeUserSettings(box, {mcp_servers: {remote: {url: gate.url}}})
  })

  it('mcp logout forgets the login; the server asks for one again', async () => {
    const out = await cli(['mcp', 'logout', 'remote', '--json'])
    expect(out.exitCode).toBe(0)
    expect(JSON.parse(out.stdout)).toMatchObject({name: 'remote', removed: true, revocation: 'revoked'})
    expect(storedCredentials(box)['mcp:remote']).toBeUndefined()
    expect((await toolsSay()).text).toContain('needs you to log in')
    const again = await cli(['mcp', 'logout', 'remote'])
    expect([again.exitCode, unwrapped(again.stderr)]).toEqual([
      1,
      expect.stringContaining('Not logged in to MCP server remote'),
    ])
  })

  it('logs in with --device as the configured client (no registration), with a refresh token', async () => {
    writeUserSettings(box, {mcp_servers: {remote: {oauth: {client_id: oidc.clientId}, url: gate.url}}})
    const login = startLogin(['remote', '--device'], box, {}, ['mcp', 'login'])
    const [, uri, code] = await login.read(/open (http:\/\/\S+) on any device and enter the code:\n\n {2}(\S+)\n/)
    await new HeadlessBrowser().approveDevice(uri, code, {account: 'grace'})
    expect((await login.result).exitCode).toBe(0)
    expect(storedCredentials(box)['mcp:remote']).toMatchObject({
      clientId: oidc.clientId,
      refreshToken: expect.any(String),
      resource: gate.url,
    })
    expect((await toolsSay()).exitCode).toBe(0)
  }, 60_000)

  it('a stdio server or an unknown name is a clear error, not a login', async () => {
    writeUserSettings(box, {mcp_servers: {local: {command: 'true'}, remote: {url: gate.url}}})
    const stdio = await cli(['mcp', 'login', 'local'])
    expect([stdio.exitCode, unwrapped(stdio.stderr)]).toEqual([
      2,
      expect.stringContaining('logins are for HTTP servers'),
    ])
    writeUserSettings(box, {
      mcp_servers: {m2m: {oauth: {client_id: 'c', client_secret: 's', grant: 'client_credentials'}, url: gate.url}},
    })
    const machine = await cli(['mcp', 'login', 'm2m'])
    expect([machine.exitCode, unwrapped(machine.stderr)]).toEqual([2, expect.stringContaining('needs no login')])
    const unknown = await cli(['mcp', 'login', 'nope'])
    expect([unknown.exitCode, unwrapped(unknown.stderr)]).toEqual([
      2,
      expect.stringContaining('No enabled MCP server named nope'),
    ])
  })

  it('logs in as a client_secret_basic-only client, and renews the expired token with its stored refresh token', async () => {
    const oauth = {client_id: BASIC_CLIENT.clientId, client_secret: BASIC_CLIENT.clientSecret}
    writeUserSettings(box, {
      mcp_servers: {remote: {oauth: {...oauth, scopes: ['mcp:tools', 'offline_access']}, url: gate.url}},
    })
    const login = startLogin(['remote', '--no-browser'], box, {}, ['mcp', 'login'])
    const authorize = new URL((await login.read(AUTHORIZE_URL))[1])
    login.paste((await new HeadlessBrowser().approveAuthorization(authorize, {account: 'basic'})).href)
    const end = await login.result
    expect([end.exitCode, unwrapped(end.stderr)]).toEqual([0, expect.not.stringContaining(BASIC_CLIENT.clientSecret)])
    const first = storedCredentials(box)['mcp:remote']
    expect(first).toMatchObject({clientId: BASIC_CLIENT.clientId, refreshToken: expect.any(String)})

    // The access token has expired: the next use renews it (Basic again) with the stored refresh token.
    const file = JSON.parse(readFileSync(credentialsFile(box), 'utf8'))
    file.providers['mcp:remote'].expiresAt = 1
    writeFileSync(credentialsFile(box), JSON.stringify(file))
    expect((await toolsSay()).exitCode).toBe(0)
    const renewed = storedCredentials(box)['mcp:remote']
    expect(renewed.accessToken).not.toBe(first.accessToken)
    expect(renewed.refreshToken).not.toBe(first.refreshToken)
  }, 60_000)

  it('a server that wants more scopes names the login that asks for them, not the start-up timeout', async () => {
    gate.stepUp = 'mcp:tools mcp:admin'
    try {
      const {exitCode, text} = await toolsSay()
      expect(exitCode).toBe(1)
      expect(text).toContain('MCP server "remote" needs a login with more access (scopes: mcp:tools mcp:admin)')
      expect(text).toContain('hanzo-dev mcp login remote --scope "mcp:tools mcp:admin"')
      expect(text).not.toContain('startup_timeout_ms')
    } finally {
      gate.stepUp = undefined
    }
  })
})

/**
 * A server on MCP's 2025-03-26 authorization: a 401 without RFC 9728 metadata, no RFC 8414
 * metadata either, and the spec's default endpoints on its own origin. Its registration issues
 * a secret to be sent with HTTP Basic.
 */
async function legacyServer(): Promise<{
  url: string
  tokenRequests: {form: URLSearchParams; authorization?: string}[]
  close(): Promise<void>
}> {
  const tokenRequests: {form: URLSearchParams; authorization?: string}[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, {'content-type': 'application/json'})
        res.end(JSON.stringify(value))
      }
      if (req.url === '/register' && req.method === 'POST')
        return json(201, {
          client_id: 'legacy-client',
          client_secret: 'issued-secret',
          token_endpoint_auth_method: 'client_secret_basic',
        })
      if (req.url === '/token' && req.method === 'POST') {
        tokenRequests.push({authorization: req.headers.authorization, form: new URLSearchParams(body)})
        return json(200, {access_token: 'legacy-token', token_type: 'Bearer'})
      }
      if (req.url === '/mcp') {
        res.writeHead(401, {'www-authenticate': 'Bearer'})
        return res.end()
      }
      res.writeHead(404)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
    tokenRequests,
    url: `${origin}/mcp`,
  }
}

describe('hanzo-dev mcp login: a server on the 2025-03-26 authorization spec', () => {
  it("registers and logs in at the server origin's default endpoints, with the secret the registration issued", async () => {
    const box = makeSandbox('hanzo-mcp-legacy-')
    const legacy = await legacyServer()
    try {
      writeUserSettings(box, {mcp_servers: {old: {url: legacy.url}}})
      const login = startLogin(['old', '--no-browser'], box, {}, ['mcp', 'login'])
      const origin = new URL(legacy.url).origin
      const authorize = new URL((await login.read(/\n {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)\n/))[1])
      expect(authorize.origin).toBe(origin)
      expect(authorize.searchParams.get('client_id')).toBe('legacy-client')
      const back = new URL(authorize.searchParams.get('redirect_uri')!)
      back.searchParams.set('code', 'legacy-code')
      back.searchParams.set('state', authorize.searchParams.get('state')!)
      login.paste(back.href)
      const end = await login.result
      expect(end.exitCode).toBe(0)
      expect(`${end.stdout}${end.stderr}`).not.toContain('issued-secret')
      const [exchange] = legacy.tokenRequests
      expect(exchange.form.get('code')).toBe('legacy-code')
      expect(exchange.form.has('client_secret')).toBe(false)
      expect(exchange.authorization).toBe(`Basic ${Buffer.from('legacy-client:issued-secret').toString('base64')}`)
      expect(storedCredentials(box)['mcp:old']).toMatchObject({
        accessToken: 'legacy-token',
        clientSecret: 'issued-secret',
        resource: legacy.url,
        tokenAuthMethod: 'client_secret_basic',
      })
    } finally {
      await legacy.close()
      box.cleanup()
    }
  }, 60_000)
})
