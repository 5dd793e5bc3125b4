import {describe, expect, it} from 'vitest'

import {mkdtempSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {startFakeModel} from '../../src/testing/fake-model/server.js'
import {REPO_ROOT} from '../helpers/cli.js'
import {HeadlessBrowser} from '../support/oidc/browser.js'
import {startOidcServer} from '../support/oidc/server.js'

// The package's own entry, as `import ... from 'hanzo-dev'` resolves it (the built dist/).
const library = await import('hanzo-dev')

describe("the library entry ('hanzo-dev')", () => {
  it('exports the HIP-301 protocol pieces', () => {
    for (const name of [
      'SseFrameBuffer',
      'Backoff',
      'PkceChallenge',
      'normalizeMcpToolName',
      'parseMcpToolName',
      'ProtocolError',
    ]) {
      expect(library, name).toHaveProperty(name)
    }

    const sse = new library.SseFrameBuffer()
    expect(sse.feed('data: [DONE]\n\n')).toEqual([{data: '[DONE]', event: null, id: null, retry: null}])
    expect(library.normalizeMcpToolName('github', 'create.issue')).toBe('mcp__github__create_issue')
  })

  it('exports the core (the plugins export their own classes), and none of the CLI', () => {
    for (const name of [
      'loadConfig',
      'OAuthFlow',
      'FileCredentialStore',
      'PermissionPolicy',
      'openAgentSession',
      'UserError',
      'isUserError',
    ])
      expect(library, name).toHaveProperty(name)
    for (const name of [
      'HookRunner',
      'Sandbox',
      'LspClient',
      'RunOutput',
      'terminalSpinner',
      'readTask',
      'makeStyle',
      'editSetting',
    ])
      expect(library, name).not.toHaveProperty(name)
  })

  it('hands plugins the Host port as hanzo-dev/host, with the contract version they check', async () => {
    const {PLUGIN_API_VERSION, loadHost} = library
    const host = await loadHost({root: REPO_ROOT})
    expect(host.apiVersion).toBe(PLUGIN_API_VERSION)
    expect(host.version).toBe(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version)
    expect(host.normalizeMcpToolName('github', 'create.issue')).toBe('mcp__github__create_issue')
  })

  // The Agent / Runner / tool example itself runs in library-readme.test.ts, extracted from README.md.
  it('exports the agent API with its defaults; with no client, a run rejects with the exported MissingModelClientError', async () => {
    for (const name of [
      'Agent',
      'Runner',
      'tool',
      'createOpenAIClient',
      'setDefaultOpenAIClient',
      'setDefaultOpenAIApi',
      'resetOpenAIDefaults',
    ])
      expect(library, name).toHaveProperty(name)
    const failure = await library.Runner.run(new library.Agent({model: 'm', name: 'a'}), 'Hi').catch(
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(library.MissingModelClientError)
  })

  it("logs in with the README's OAuthFlow example against a real authorization server", async () => {
    const {credentialFromToken, discoverAuthServer, FileCredentialStore, OAuthFlow, startLoopbackReceiver} = library
    const server = await startOidcServer()
    const dir = mkdtempSync(join(tmpdir(), 'hanzo-lib-'))
    try {
      const meta = await discoverAuthServer(server.issuer, fetch)
      const receiver = await startLoopbackReceiver()
      const flow = new OAuthFlow({
        clientId: server.clientId,
        fetch,
        issuer: meta.issuer,
        redirectUri: receiver.redirectUri,
        tokenUrl: meta.token_endpoint,
      })
      const token = await flow.authorize(meta.authorization_endpoint!, ['openid'], {
        // The test is the browser: it signs in and follows the redirect to the loopback listener.
        onAuthorizationUrl: async (url) =>
          void (await fetch(await new HeadlessBrowser().approveAuthorization(url, {account: 'lib'}))),
        receiver,
      })
      await receiver.close()
      const store = new FileCredentialStore({path: join(dir, 'credentials.json')})
      await store.store(
        'corp',
        credentialFromToken(token, Date.now(), {clientId: server.clientId, issuer: meta.issuer}),
      )
      expect(await store.list()).toEqual([
        {
          account: 'lib',
          expiresAt: expect.any(Number),
          hasRefreshToken: false,
          issuer: server.issuer,
          provider: 'corp',
          scope: 'openid',
          type: 'oauth',
        },
      ])
    } finally {
      rmSync(dir, {force: true, recursive: true})
      await server.close()
    }
  })

  it('opens the agent session hanzo-dev run runs (openAgentSession), scoped to read-only tools', async () => {
    const {AgentRunError, openAgentSession} = library
    const model = await startFakeModel({
      turns: [{expect: {tools_include: ['fs_read']}, text: 'Nothing to change.'}, {status: 402}],
    })
    const home = mkdtempSync(join(tmpdir(), 'hanzo-lib-'))
    const env = {HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data')}
    const session = await openAgentSession({
      baseURL: model.url,
      cwd: home,
      env,
      permissionMode: 'deny',
      tools: 'read-only',
    })
    try {
      expect(session.tools).toContain('fs_read')
      expect(session.tools).not.toContain('exec')
      const result = await session.run('is anything wrong?')
      expect(result).toMatchObject({finalOutput: 'Nothing to change.', stop: 'completed'})
      expect(result.usageReport.run.output_tokens).toBeGreaterThan(0)
      // A model error is a user error with the server's message (and a hint), for the caller to report.
      const failed = await session.run('again').catch((error: unknown) => error)
      expect(failed).toBeInstanceOf(AgentRunError)
      expect(failed).toMatchObject({hint: expect.stringContaining('credit'), name: 'UserError'})
    } finally {
      await session.close()
      await model.close()
      rmSync(home, {force: true, recursive: true})
    }
  })
})
