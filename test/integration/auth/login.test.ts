import {existsSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox, unwrapped} from '../../helpers/cli.js'
import {waitUntil} from '../../helpers/processes.js'
import {HeadlessBrowser} from '../../support/oidc/browser.js'
import {type OidcServer, startOidcServer} from '../../support/oidc/server.js'
import {
  AUTHORIZE_URL,
  credentialsFile,
  startLogin,
  storedCredentials,
  writeUserSettings,
} from '../../support/oauth/cli-login.js'

// The built CLI against a real authorization server (oidc-provider), the test playing the browser.
describe('hanzo-dev auth login (PKCE) against oidc-provider', () => {
  let server: OidcServer
  let box: Sandbox
  beforeAll(async () => {
    server = await startOidcServer()
  })
  afterAll(() => server.close())
  beforeEach(() => {
    box?.cleanup()
    box = makeSandbox('hanzo-auth-')
    writeUserSettings(box, {
      providers: {
        corp: {
          oauth: {client_id: server.clientId, issuer: server.issuer, scopes: ['openid', 'email', 'offline_access']},
        },
      },
    })
  })

  it('opens the browser, receives the redirect on 127.0.0.1, and stores the login (0600)', async () => {
    // A stand-in for the desktop's browser: xdg-open (through `open`) runs $BROWSER with the URL.
    const opened = join(box.home, 'opened-urls')
    const browser = join(box.home, 'browser.sh')
    writeFileSync(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`, {mode: 0o755})
    const login = startLogin(['--provider', 'corp'], box, {BROWSER: browser})
    const [, printed] = await login.read(AUTHORIZE_URL)
    // `>>` creates the file before printf writes the line, so wait for the whole line.
    await waitUntil(() => existsSync(opened) && readFileSync(opened, 'utf8').endsWith('\n'), 'the browser was opened')
    expect(readFileSync(opened, 'utf8').trim()).toBe(printed)
    const authorize = new URL(printed)
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: 'hanzo-dev-cli',
      code_challenge_method: 'S256',
      prompt: 'consent',
      redirect_uri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/),
      response_type: 'code',
      scope: 'openid email offline_access',
    })

    const callback = await new HeadlessBrowser().approveAuthorization(printed, {account: 'alice'})
    const page = await fetch(callback)
    expect(await page.text()).toContain('Login received')
    const end = await login.result
    expect(end).toMatchObject({
      exitCode: 0,
      stdout: expect.stringMatching(
        /^Logged in to corp as alice \(token expires in 60 minutes\); stored in .*credentials\.json$/,
      ),
    })

    expect(statSync(credentialsFile(box)).mode & 0o777).toBe(0o600)
    expect(storedCredentials(box).corp).toMatchObject({
      account: 'alice',
      clientId: 'hanzo-dev-cli',
      issuer: server.issuer,
      refreshToken: expect.any(String),
      type: 'oauth',
    })

    const status = await runCli(['auth', 'status', '--json'], {env: box.env})
    expect(JSON.parse(status.stdout)).toEqual({
      apiKeys: [],
      backend: 'file',
      credentials: [
        {
          account: 'alice',
          backend: 'file',
          expired: false,
          expiresAt: expect.any(String),
          issuer: server.issuer,
          provider: 'corp',
          renewable: true,
          storedIn: credentialsFile(box),
          type: 'oauth',
        },
      ],
    })
    const human = await runCli(['auth', 'status'], {env: box.env})
    expect(human.stdout).toMatch(/^corp: OAuth, as alice, expires in (59|60) minutes — .*credentials\.json$/)
  })

  it('--no-browser takes the pasted redirect URL; an issuer URL works as the provider', async () => {
    const login = startLogin(['--provider', server.issuer, '--client-id', server.clientId, '--no-browser'], box)
    const [, url] = await login.read(AUTHORIZE_URL)
    await login.read(/paste the URL the browser ends on/)
    login.paste((await new HeadlessBrowser().approveAuthorization(url, {account: 'bob'})).href)
    // The issuer names the provider "corp" in the settings: the login is stored under that name.
    expect(await login.result).toMatchObject({exitCode: 0, stdout: expect.stringContaining('Logged in to corp as bob')})
  })

  it('refuses a redirect whose state does not match, and stores nothing', async () => {
    const login = startLogin(['--provider', 'corp', '--no-browser'], box)
    const [, url] = await login.read(AUTHORIZE_URL)
    const callback = await new HeadlessBrowser().approveAuthorization(url, {account: 'mallory'})
    callback.searchParams.set('state', 'forged')
    login.paste(callback.href)
    const end = await login.result
    expect(end.exitCode).toBe(1)
    expect(unwrapped(end.stderr)).toContain(
      'The redirect does not belong to this login (its state does not match): login stopped',
    )
    expect(end.stderr).not.toMatch(/at .*\.js:\d+/)
    expect(existsSync(credentialsFile(box))).toBe(false)
  })

  it("refuses a replayed code with the server's own answer", async () => {
    const first = startLogin(['--provider', 'corp', '--no-browser'], box)
    const callback = await new HeadlessBrowser().approveAuthorization((await first.read(AUTHORIZE_URL))[1], {
      account: 'alice',
    })
    first.paste(callback.href)
    expect((await first.result).exitCode).toBe(0)

    const replay = startLogin(['--provider', 'corp', '--no-browser'], box)
    await replay.read(AUTHORIZE_URL)
    replay.paste(callback.searchParams.get('code')!)
    const end = await replay.result
    expect(end.exitCode).toBe(1)
    expect(end.stderr).toMatch(/invalid_grant/)
  })

  it('reports a denied consent clearly', async () => {
    const login = startLogin(['--provider', 'corp', '--no-browser'], box)
    const callback = await new HeadlessBrowser().approveAuthorization((await login.read(AUTHORIZE_URL))[1], {
      account: 'alice',
      consent: false,
    })
    login.paste(callback.href)
    const end = await login.result
    expect(end.exitCode).toBe(1)
    expect(unwrapped(end.stderr)).toContain('The login was denied (access_denied')
  })

  it('stops at Ctrl-C with exit 130', async () => {
    const login = startLogin(['--provider', 'corp', '--no-browser'], box)
    await login.read(AUTHORIZE_URL)
    login.interrupt()
    const end = await login.result
    expect(end.exitCode).toBe(130)
    expect(end.stderr).toContain('Login cancelled')
  })

  it('logs out: revokes the grant at the server and deletes the credential', async () => {
    const login = startLogin(['--provider', 'corp', '--no-browser'], box)
    login.paste(
      (await new HeadlessBrowser().approveAuthorization((await login.read(AUTHORIZE_URL))[1], {account: 'alice'})).href,
    )
    expect((await login.result).exitCode).toBe(0)
    const {refreshToken} = storedCredentials(box).corp as {refreshToken: string}

    const out = await runCli(['auth', 'logout', '--provider', 'corp', '--json'], {env: box.env})
    expect(out.exitCode).toBe(0)
    expect(JSON.parse(out.stdout)).toEqual({loggedOut: [{provider: 'corp', revocation: 'revoked'}]})
    expect(storedCredentials(box)).toEqual({})
    const refresh = await fetch(`${server.issuer}/token`, {
      body: new URLSearchParams({client_id: server.clientId, grant_type: 'refresh_token', refresh_token: refreshToken}),
      method: 'POST',
    })
    expect(await refresh.json()).toMatchObject({error: 'invalid_grant'})
    expect((await runCli(['auth', 'status'], {env: box.env})).exitCode).toBe(1)
  })
})
