import {REDACTED} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {hostAllowed, redactArgs, redactConfig, redactUrl, settingEntries} from '../../../src/core/config/index.js'
import type {HanzoConfig} from '../../../src/core/config/index.js'

describe('redaction and host allow-list', () => {
  it('redacts every credential and nothing else', () => {
    const config = {
      api_key: 'sk-1',
      hooks: [],
      mcp_servers: {gh: {command: 'gh', env: {GH_HOST: 'github.com', GITHUB_TOKEN: 'ghp-1'}, headers: {Authorization: 'Bearer x'}}},
      model: 'm',
      oauth_credentials: {access_token: 'tok'},
      permissions: {},
      providers: {openai: {api: 'responses', api_key: 'sk-2', oauth: {client_id: 'id', client_secret: 'cs'}}},
    } as unknown as HanzoConfig
    expect(redactConfig(config)).toEqual({
      api_key: REDACTED,
      hooks: [],
      mcp_servers: {gh: {command: 'gh', env: {GH_HOST: 'github.com', GITHUB_TOKEN: REDACTED}, headers: {Authorization: REDACTED}}},
      model: 'm',
      oauth_credentials: REDACTED,
      permissions: {},
      providers: {openai: {api: 'responses', api_key: REDACTED, oauth: {client_id: 'id', client_secret: REDACTED}}},
    })
    expect(JSON.stringify(settingEntries(config, {}))).not.toMatch(/sk-|ghp-|Bearer|"tok"|"cs"/)
  })

  it('redacts secret flags in MCP command lines and secrets in URLs', () => {
    const config = {
      base_url: 'https://u:pw-1@gw.example.com/v1?key=abc&region=eu#frag',
      hooks: [],
      mcp_servers: {
        api: {args: ['--api-key', 'sk-live-123', '--token=tok-2', '--verbose', 'https://x:y@h/p', '-p', '8080'], command: ['api-mcp', '--secret', 'sk-3']},
        web: {url: 'https://u:pw@h/x?token=abc'},
      },
      model: 'm',
      permissions: {},
    } as unknown as HanzoConfig
    expect(redactConfig(config)).toEqual({
      base_url: `https://${REDACTED}@gw.example.com/v1?key=${REDACTED}&region=${REDACTED}#${REDACTED}`,
      hooks: [],
      mcp_servers: {
        api: {
          args: ['--api-key', REDACTED, `--token=${REDACTED}`, '--verbose', `https://${REDACTED}@h/p`, '-p', '8080'],
          command: ['api-mcp', '--secret', REDACTED],
        },
        web: {url: `https://${REDACTED}@h/x?token=${REDACTED}`},
      },
      model: 'm',
      permissions: {},
    })
    expect(JSON.stringify(settingEntries(config, {}))).not.toMatch(/sk-|tok-2|pw|abc|x:y/)
    expect(redactUrl('https://h/plain')).toBe('https://h/plain')
    expect(redactArgs(['--port', '80', 'not a url'])).toEqual(['--port', '80', 'not a url'])
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
