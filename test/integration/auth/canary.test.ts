import {randomBytes} from 'node:crypto'
import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join, relative} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import type {Turn} from '../../../src/testing/fake-model/script.js'
import {startFakeModel} from '../../../src/testing/fake-model/server.js'
import {type CliResult, makeSandbox, runCli, type Sandbox, unwrapped} from '../../helpers/cli.js'
import {credentialsFile, startLogin, writeUserSettings} from '../../support/oauth/cli-login.js'
import {
  type ScriptedAnswer,
  type ScriptedOAuthServer,
  startScriptedOAuthServer,
} from '../../support/oauth/scripted-server.js'

// Issue 5: "Secrets never leak". Every secret the CLI handles is a random canary, the servers
// echo them back in their errors, every command runs with oclif's debug output on (DEBUG=* logs
// argv and stacks; HANZO_DEV_DEBUG prints errors with their stacks and causes), and afterwards
// no file but the store holds one. Errors are also run once without debug, to check they read
// as one clear message.

const DEBUG_ENV = {DEBUG: '*', HANZO_DEV_DEBUG: '1'}
const STACK_LINE = /^\s*at .*:\d+:\d+\)?$/m
const AUTHORIZE_URL = /\n {2}(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)\n/
/** oclif wraps messages at the terminal width. */
const secret = (kind: string) => `CANARY-${kind}-${randomBytes(12).toString('hex')}`
const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
const S = {
  apiKey: secret('KEY'),
  at1: secret('AT'),
  at2: secret('AT'),
  at3: secret('AT'),
  at4: secret('AT'),
  clientSecret: secret('CS'),
  code: secret('CODE'),
  deviceCode: secret('DC'),
  envKey: secret('ENV'),
  // Never stored: only the account is read from it.
  idToken: `${base64url({alg: 'none'})}.${base64url({email: 'carol@example.com'})}.${secret('IDT')}`,
  rt1: secret('RT'),
  rt2: secret('RT'),
  rt3: secret('RT'),
  rt4: secret('RT'),
  settingsKey: secret('SK'),
}

describe('secrets never leak (issue 5): canaries through every command, with debug output on', () => {
  let box: Sandbox
  let srv: ScriptedOAuthServer
  let project: string
  /** PKCE verifiers are the CLI's own secrets: read from what the server received. */
  const verifiers: string[] = []

  beforeAll(async () => {
    box = makeSandbox('hanzo-canary-')
    project = join(box.home, 'project')
    // Leftover temp files must land where the walk looks.
    box.env.TMPDIR = join(box.home, 'tmp')
    for (const dir of [project, box.env.TMPDIR]) mkdirSync(dir, {recursive: true})
    writeFileSync(join(project, 'notes.txt'), 'hello\n')
    srv = await startScriptedOAuthServer()
    srv.script['/device'] = [
      {
        body: {
          device_code: S.deviceCode,
          expires_in: 600,
          interval: 1,
          user_code: 'ABCD-EFGH',
          verification_uri: `${srv.issuer}/activate`,
        },
      },
    ]
    settings()
  })
  afterAll(async () => {
    await srv.close()
    box.cleanup()
  })

  const settingsFile = () => join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')

  function settings(modelUrl = 'http://127.0.0.1:9/v1') {
    const oauth = {
      client_id: 'hanzo-cli',
      client_secret: S.clientSecret,
      issuer: srv.issuer,
      scopes: ['openid', 'offline_access'],
    }
    writeUserSettings(box, {
      provider: 'corp',
      providers: {
        corp: {base_url: modelUrl, oauth},
        corp2: {base_url: modelUrl, oauth},
        corp3: {api_key: S.settingsKey, base_url: modelUrl},
      },
    })
  }

  const tokens = (accessToken: string, refreshToken: string): ScriptedAnswer => ({
    body: {
      access_token: accessToken,
      expires_in: 30,
      id_token: S.idToken,
      refresh_token: refreshToken,
      token_type: 'Bearer',
    },
  })

  /** A careless server: its answer quotes every field of the request, secrets and all. */
  function echo(status: number, body: (sent: string) => Record<string, unknown> | string): ScriptedAnswer {
    return {
      get body() {
        const form = srv.requests.at(-1)?.form ?? {}
        return body(
          Object.entries(form)
            .map(([name, value]) => `${name}=${value}`)
            .join(' '),
        )
      },
      status,
    }
  }

  const oauthError = (status: number, error: string) =>
    echo(status, (sent) => ({error, error_description: `request rejected: ${sent}`}))
  const htmlPage = echo(500, (sent) => `<html><body><h1>Internal Server Error</h1><pre>${sent}</pre></body></html>`)

  /** Where each kind of canary may rest on disk: the store, or the settings the user wrote it in. */
  const allowedFile = (kind: string | undefined) =>
    ({
      AT: credentialsFile(box),
      CS: settingsFile(),
      KEY: credentialsFile(box),
      RT: credentialsFile(box),
      SK: settingsFile(),
    })[kind ?? '']

  /** Each canary or verifier in `text`, with what surrounds it: the report of a leak. */
  function leaks(text: string, file?: string): string[] {
    const found = [...text.matchAll(/CANARY(?:-([A-Z]+))?/g)]
      .filter((match) => file === undefined || allowedFile(match[1]) !== file)
      .map((match) => text.slice(Math.max(0, match.index - 80), match.index + 50))
    for (const verifier of verifiers) if (text.includes(verifier)) found.push(`the PKCE verifier ${verifier}`)
    return found
  }

  function check(label: string, result: CliResult, {tokenOnStdout = false} = {}) {
    expect.soft(leaks(result.stderr), `${label}: stderr`).toEqual([])
    if (!tokenOnStdout) expect.soft(leaks(result.stdout), `${label}: stdout`).toEqual([])
  }

  async function cli(
    label: string,
    args: string[],
    options: {env?: Record<string, string>; input?: string; quiet?: boolean; tokenOnStdout?: boolean} = {},
  ) {
    const env = {...box.env, ...(options.quiet ? {} : DEBUG_ENV), HANZO_API_KEY: S.envKey, ...options.env}
    const result = await runCli(args, {cwd: project, env, input: options.input})
    check(label, result, options)
    return result
  }

  function expectClearError(result: CliResult, message: string) {
    expect(result.exitCode).toBe(1)
    expect(unwrapped(result.stderr)).toContain(message)
    expect(result.stderr).not.toMatch(STACK_LINE)
  }

  /** An error-answering command, run plain (to read its message) and with debug output. */
  async function failing(label: string, args: string[], message: string) {
    expectClearError(await cli(label, args, {quiet: true}), message)
    expect((await cli(`${label} (debug)`, args)).exitCode).toBe(1)
  }

  function diskLeaks(): string[] {
    return readdirSync(box.home, {recursive: true, withFileTypes: true})
      .filter((entry) => entry.isFile())
      .flatMap((entry) => {
        const file = join(entry.parentPath, entry.name)
        return leaks(readFileSync(file, 'latin1'), file).map((leak) => `${relative(box.home, file)}: ${leak}`)
      })
  }

  it('a PKCE login whose code exchange is refused by a server quoting the code, verifier and client secret', async () => {
    srv.script['/token'] = [oauthError(400, 'invalid_grant')]
    for (const debug of [false, true]) {
      const login = startLogin(['--provider', 'corp', '--no-browser'], box, {
        HANZO_API_KEY: S.envKey,
        ...(debug ? DEBUG_ENV : {}),
      })
      const authorize = new URL((await login.read(AUTHORIZE_URL))[1]).searchParams
      const redirect = `${authorize.get('redirect_uri')}?code=${S.code}&state=${authorize.get('state')}`
      // Pasted (the browser is elsewhere), or the browser's own redirect: its page must not show the code either.
      if (debug) expect(leaks(await (await fetch(redirect)).text()), 'the loopback page').toEqual([])
      else login.paste(redirect)
      const end = await login.result
      const exchange = srv.requests.findLast((request) => request.path === '/token')!.form
      expect(exchange).toMatchObject({client_secret: S.clientSecret, code: S.code})
      verifiers.push(exchange.code_verifier)
      check(`auth login --no-browser${debug ? ' (debug)' : ''}`, end)
      if (debug) expect(end.exitCode).toBe(1)
      else expectClearError(end, 'invalid_grant')
    }
  })

  it('a device login refused by a server quoting the device code, then one handing out tokens', async () => {
    srv.script['/token'] = [oauthError(400, 'invalid_client')]
    await failing(
      'auth login --device (refused)',
      ['auth', 'login', '--provider', 'corp', '--device'],
      'The authorization server refused the login (invalid_client',
    )
    expect(srv.requests.findLast((request) => request.path === '/token')!.form.device_code).toBe(S.deviceCode)

    srv.script['/token'] = [{body: {error: 'authorization_pending'}, status: 400}, tokens(S.at1, S.rt1)]
    const login = await cli('auth login --device --json', ['auth', 'login', '--provider', 'corp', '--device', '--json'])
    expect(login.exitCode).toBe(0)
    expect(JSON.parse(login.stdout)).toMatchObject({account: 'carol@example.com', provider: 'corp', type: 'oauth'})
  })

  it('an API key read from stdin, and the status of every credential', async () => {
    const stored = await cli('auth login --with-api-key', ['auth', 'login', '--provider', 'corp2', '--with-api-key'], {
      input: `${S.apiKey}\n`,
    })
    expect(stored).toMatchObject({exitCode: 0, stdout: expect.stringContaining('Logged in to corp2')})
    expect((await cli('auth status', ['auth', 'status'])).exitCode).toBe(0)
    const status = await cli('auth status --json', ['auth', 'status', '--json'])
    expect(JSON.parse(status.stdout)).toMatchObject({
      apiKeys: expect.arrayContaining([
        {provider: 'hanzo', source: 'HANZO_API_KEY'},
        {file: settingsFile(), provider: 'corp3', source: 'providers.corp3.api_key'},
      ]),
      credentials: [
        expect.objectContaining({provider: 'corp'}),
        expect.objectContaining({provider: 'corp2', type: 'api_key'}),
      ],
    })
  })

  it('auth token renews the login (its stdout is the token), and refused renewals say why without the tokens', async () => {
    srv.script['/token'] = [tokens(S.at2, S.rt2)]
    const renewed = await cli('auth token', ['auth', 'token', '--provider', 'corp'], {tokenOnStdout: true})
    expect(renewed).toMatchObject({exitCode: 0, stdout: S.at2})
    expect(srv.requests.findLast((request) => request.path === '/token')!.form).toMatchObject({
      grant_type: 'refresh_token',
      refresh_token: S.rt1,
    })
    expect(
      (await cli('auth token (API key)', ['auth', 'token', '--provider', 'corp2'], {tokenOnStdout: true})).stdout,
    ).toBe(S.apiKey)

    const token = ['auth', 'token', '--provider', 'corp']
    const refusals: [string, ScriptedAnswer, string][] = [
      [
        'invalid_grant',
        oauthError(400, 'invalid_grant'),
        'The corp login was revoked, or its refresh token was already used',
      ],
      [
        'invalid_client',
        oauthError(400, 'invalid_client'),
        'Could not renew the corp login: invalid_client: request rejected',
      ],
      [
        'a 500 naming the token',
        echo(500, (sent) => ({error: `server_error while handling ${sent}`})),
        'Could not renew the corp login',
      ],
      ['a 500 page', htmlPage, 'answered HTTP 500 with a body that is not JSON'],
    ]
    for (const [what, answer, message] of refusals) {
      srv.script['/token'] = [answer]
      await failing(`auth token, renewal refused with ${what}`, token, message)
    }
  })

  it('run with the stored login and with the stored API key, the model quoting them in its errors', async () => {
    srv.script['/token'] = [oauthError(400, 'invalid_grant')]
    await failing(
      'run, renewal refused',
      ['run', 'hi'],
      'The corp login was revoked, or its refresh token was already used',
    )
    srv.script['/token'] = [tokens(S.at3, S.rt3)]
    const unauthorized = (key: string): Turn => ({
      body: {code: 'invalid_api_key', message: `Incorrect API key provided: ${key}`},
      status: 401,
    })
    // A tool call first, so that the run writes an audit record for the walk to read.
    const read: Turn = {tool_calls: [{arguments: {path: 'notes.txt'}, name: 'fs_read'}]}
    const viaKey = {HANZO_PROVIDER: 'corp2'}
    const runs: [string, Turn[], string[], {env?: Record<string, string>; quiet?: boolean}][] = [
      ['run (login, 401)', [read, unauthorized(S.at3)], [], {quiet: true}],
      ['run --output-format json (login, 401)', [unauthorized(S.at3)], ['--output-format', 'json'], {}],
      [
        'run --output-format stream-json (login, stream error)',
        [{stream_error: {message: `token ${S.at3} revoked`}, text: 'Let me'}],
        ['--output-format', 'stream-json'],
        {},
      ],
      ['run (API key, 401)', [unauthorized(S.apiKey)], [], {env: viaKey, quiet: true}],
      ['run (API key, 401, debug)', [unauthorized(S.apiKey)], [], {env: viaKey}],
      [
        'run --output-format json (API key, 502 pages)',
        Array(3).fill({body: `<html>proxy: bad key ${S.apiKey}</html>`, status: 502}),
        ['--output-format', 'json'],
        {env: viaKey},
      ],
      ['run (API key, error body)', [{error_body: {message: `key ${S.apiKey} is over its quota`}}], [], {env: viaKey}],
    ]
    for (const [label, turns, args, options] of runs) {
      const model = await startFakeModel({turns})
      try {
        settings(model.url)
        const out = await cli(label, ['run', 'read notes.txt', '--permission-mode', 'allow-reads', ...args], options)
        expect(out.exitCode, label).toBe(1)
        if (options.quiet) expectClearError(out, 'Incorrect API key provided')
        expect(model.requests.length, label).toBe(turns.length)
      } finally {
        await model.close()
      }
    }

    settings()
  })

  it('config and doctor show the settings, their keys redacted', async () => {
    for (const args of [
      ['config', 'list'],
      ['config', 'list', '--json'],
      ['config', 'list', '--show-origin'],
      ['config', 'get', 'providers'],
      ['config', 'get', 'providers', '--json'],
      ['config', 'get', 'providers.corp3.api_key'],
      ['config', 'get', 'api_key'],
      ['doctor'],
      ['doctor', '--json'],
    ]) {
      await cli(args.join(' '), args)
    }

    expect((await cli('config list (again)', ['config', 'list'])).stdout).toContain(
      'providers.corp3.api_key=[redacted]',
    )
  })

  it('--verbose is refused without running the command or echoing stdin', async () => {
    for (const args of [
      ['auth', 'status', '--verbose'],
      ['auth', 'token', '--provider', 'corp', '--verbose'],
      ['auth', 'login', '--provider', 'corp2', '--with-api-key', '--verbose'],
      ['auth', 'logout', '--all', '--verbose'],
      ['config', 'list', '--verbose'],
      ['doctor', '--verbose'],
    ]) {
      const out = await cli(args.join(' '), args, {input: `${S.apiKey}\n`})
      expect(out.exitCode, args.join(' ')).toBe(2)
      expect(out.stderr).toContain('Nonexistent flag: --verbose')
    }
  })

  it('while logged in, no file but the store holds a token (audit log, caches, temp files included)', () => {
    expect(readFileSync(credentialsFile(box), 'utf8')).toContain(S.rt3)
    expect(diskLeaks()).toEqual([])
  })

  it('logout reports a failing revocation (its answer quoting the refresh token) without the token', async () => {
    srv.script['/revoke'] = [htmlPage]
    const out = await cli('auth logout --provider corp', ['auth', 'logout', '--provider', 'corp'], {quiet: true})
    expect(out.exitCode).toBe(0)
    expect(unwrapped(out.stderr)).toContain('could not revoke the corp login at the server (')
    expect(out.stderr).not.toMatch(STACK_LINE)
    expect(srv.requests.findLast((request) => request.path === '/revoke')!.form.token).toBe(S.rt3)

    // A second grant, so that --all has one to revoke too.
    srv.script['/token'] = [tokens(S.at4, S.rt4)]
    expect(
      (await cli('auth login --device (again)', ['auth', 'login', '--provider', 'corp', '--device'])).exitCode,
    ).toBe(0)
    srv.script['/revoke'] = [oauthError(400, 'invalid_request')]
    const all = await cli('auth logout --all --json', ['auth', 'logout', '--all', '--json'])
    expect(all.exitCode).toBe(0)
    expect(JSON.parse(all.stdout)).toEqual({loggedOut: [{provider: 'corp', revocation: 'failed'}, {provider: 'corp2'}]})
  })

  it('afterwards, no file but the store and the settings holds a secret', () => {
    expect(verifiers).toHaveLength(2)
    expect(diskLeaks()).toEqual([])
  })
})
