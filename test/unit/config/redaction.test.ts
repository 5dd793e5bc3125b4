import {REDACTED} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {hostAllowed, redactConfig, settingEntries, settingEntry} from '../../../src/core/config/index.js'
import {redactBaseUrl, redactSecrets} from '../../../src/core/config/redact.js'
import type {HanzoConfig} from '../../../src/core/config/index.js'

describe('redaction and host allow-list', () => {
  it('redacts every credential and nothing else', () => {
    const config = {
      api_key: 'sk-1',
      custom_instructions: 'see https://example.com/docs?x=1#setup',
      hooks: [],
      mcp_servers: {
        gh: {command: 'gh', env: {GH_HOST: 'github.com', GITHUB_TOKEN: 'ghp-1'}, headers: {Authorization: 'Bearer x'}},
      },
      model: 'm',
      oauth_credentials: {access_token: 'tok'},
      permissions: {'exec(curl https://h/x?y)': 'allow'},
      providers: {openai: {api: 'responses', api_key: 'sk-2', oauth: {client_id: 'id', client_secret: 'cs'}}},
    } as unknown as HanzoConfig
    expect(redactConfig(config)).toEqual({
      api_key: REDACTED,
      custom_instructions: 'see https://example.com/docs?x=1#setup',
      hooks: [],
      // Every env and headers value, whatever its name: a secret hides as well in GH_HOST as in TOKEN.
      mcp_servers: {
        gh: {command: 'gh', env: {GH_HOST: REDACTED, GITHUB_TOKEN: REDACTED}, headers: {Authorization: REDACTED}},
      },
      model: 'm',
      oauth_credentials: REDACTED,
      permissions: {'exec(curl https://h/x?y)': 'allow'},
      providers: {openai: {api: 'responses', api_key: REDACTED, oauth: REDACTED}},
    })
    expect(JSON.stringify(settingEntries(config, {}))).not.toMatch(/sk-|ghp-|Bearer|"tok"|"cs"/)
  })

  it("keeps an MCP server's non-secret arguments and URL parts, the program of command lines, and the path of a base URL", () => {
    const config = {
      base_url: 'https://u:pw-1@gw.example.com/v1?key=abc&region=eu#frag',
      hooks: [
        {command: 'API_TOKEN=s1 B="two words" curl -H "Authorization: Bearer s2" https://h', event: 'stop'},
        {command: 'exit 2', event: 'stop'},
      ],
      mcp_servers: {
        api: {
          args: ['--api-key', 'sk-live-123', '--token=tok-2', '--verbose', 'https://x:y@h/p', '-p', '8080', 3],
          command: ['api-mcp', '--secret', 'sk-3'],
        },
        line: {command: '  srv --token tok-4'},
        fs: {args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/src', './docs'], command: 'npx'},
        web: {url: 'https://u:pw@h/sse/ghp_x?token=abc'},
        remote: {url: 'https://mcp.example.com/v1/mcp?region=eu&api_key=abc#frag'},
        zap: {url: 'https://mcp.example.com/s/8f3kq9x2m4n7p1r5t6v0w/mcp'},
      },
      model: 'm',
      permissions: {},
      providers: {local: {base_url: 'http://localhost:8080/v1/sk-live-5'}},
    } as unknown as HanzoConfig
    expect(redactConfig(config)).toEqual({
      // A base URL's path is what a user checks on a 404 (issue 12); a segment shaped like a key still goes.
      base_url: `https://${REDACTED}@gw.example.com/v1?${REDACTED}#${REDACTED}`,
      hooks: [
        {command: `API_TOKEN=${REDACTED} B=${REDACTED} curl ${REDACTED}`, event: 'stop'},
        {command: `exit ${REDACTED}`, event: 'stop'},
      ],
      mcp_servers: {
        api: {
          args: [
            '--api-key',
            REDACTED,
            `--token=${REDACTED}`,
            '--verbose',
            `https://${REDACTED}@h/p`,
            '-p',
            REDACTED,
            REDACTED,
          ],
          command: ['api-mcp', '--secret', REDACTED],
        },
        // A filesystem server's directories are no secret (issue 42).
        fs: {args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/src', './docs'], command: 'npx'},
        line: {command: `srv ${REDACTED}`},
        remote: {url: `https://mcp.example.com/v1/mcp?region=${REDACTED}&api_key=${REDACTED}#${REDACTED}`},
        web: {url: `https://${REDACTED}@h/sse/${REDACTED}?token=${REDACTED}`},
        zap: {url: `https://mcp.example.com/s/${REDACTED}/mcp`},
      },
      model: 'm',
      permissions: {},
      providers: {local: {base_url: `http://localhost:8080/v1/${REDACTED}`}},
    })
    expect(JSON.stringify(settingEntries(config, {}))).not.toMatch(/sk-|tok-|pw|abc|x:y|s1|s2|two words|ghp_x|8f3kq/)
  })

  it("leaves the merge's tier tags out of what it shows", () => {
    const config = {
      hooks: [{command: 'true', event: 'stop', tier: 'project'}],
      mcp_servers: {fs: {command: 'npx', tier: 'user'}},
      model: 'm',
      permissions: {},
    } as unknown as HanzoConfig
    expect(settingEntries(config, {}).map((e) => e.key)).toEqual([
      'hooks.0.command',
      'hooks.0.event',
      'mcp_servers.fs.command',
      'model',
    ])
    expect(settingEntry(config, {}, 'mcp_servers')?.value).toEqual({fs: {command: 'npx'}})
    expect(settingEntry(config, {}, 'hooks')?.value).toEqual([{command: 'true', event: 'stop'}])
  })

  it.each([
    ['https://llm.corp.example/v1', ['*.corp.example'], true],
    ['https://corp.example/v1', ['*.corp.example'], false],
    ['https://evilcorp.example/v1', ['*.corp.example'], false],
    ['http://localhost:8080/v1', ['localhost:8080'], true],
    ['http://localhost:9090/v1', ['localhost:8080'], false],
    ['https://api.example.com/v1', ['API.example.com'], true],
    ['https://api.example.com/v1', ['api.example.com:443'], true],
    ['not a url', ['*'], false],
    ['https://api.example.com', undefined, false],
  ])('hostAllowed(%s, %j) is %s', (url, allowed, want) => {
    expect(hostAllowed(url, allowed)).toBe(want)
  })
})

describe('secrets in messages (issue 12: redaction that mangled messages)', () => {
  const CONNECT =
    'Could not find the model server at http://gw.example/v1: its host name does not resolve. Check your network connection.'

  it('leaves a message alone when the "secret" is a short placeholder, a word of it or a piece of one', () => {
    expect(redactSecrets(CONNECT, ['k'])).toBe(CONNECT)
    expect(redactSecrets(CONNECT, ['model'])).toBe(CONNECT)
    // Long enough, but only inside other words: whole tokens only.
    expect(redactSecrets('Check your networking', ['network'])).toBe('Check your networking')
  })

  it('redacts a key of 8 characters or more, or of a known shape, wherever it stands as a token', () => {
    const key = 'sk-test-0123456789abcdef'
    expect(redactSecrets(`Incorrect API key provided: ${key}. Bearer ${key}, "${key}", key=${key}&x`, [key])).toBe(
      `Incorrect API key provided: ${REDACTED}. Bearer ${REDACTED}, "${REDACTED}", key=${REDACTED}&x`,
    )
    expect(redactSecrets('bad key hunter22 given', ['hunter22'])).toBe(`bad key ${REDACTED} given`)
    expect(redactSecrets('bad key sk-1', ['sk-1'])).toBe(`bad key ${REDACTED}`)
    expect(redactSecrets('a (x+y) [z]', ['(x+y) [z]'])).toBe(`a ${REDACTED}`)
    expect(redactSecrets('nothing', [undefined, ''])).toBe('nothing')
  })

  it('shows a base URL with its path, and what is not a URL as typed', () => {
    expect(redactBaseUrl('http://127.0.0.1:11434/v1')).toBe('http://127.0.0.1:11434/v1')
    expect(redactBaseUrl('https://u:pw@gw.example.com/openai/v1?key=abc#x')).toBe(
      `https://${REDACTED}@gw.example.com/openai/v1?${REDACTED}#${REDACTED}`,
    )
    expect(redactBaseUrl('https://gw.example.com/keys/sk-live-0123456789/v1')).toBe(
      `https://gw.example.com/keys/${REDACTED}/v1`,
    )
    expect(redactBaseUrl('notaurl')).toBe('notaurl')
    expect(redactBaseUrl('localhost:11434/v1')).toBe('localhost:11434/v1')
    expect(redactBaseUrl('sk-proj-0123456789abcdef')).toBe(REDACTED)
  })
})
