import {REDACTED} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {hostAllowed, redactConfig, settingEntries, settingEntry} from '../../../src/core/config/index.js'
import type {HanzoConfig} from '../../../src/core/config/index.js'

describe('redaction and host allow-list', () => {
  it('redacts every credential and nothing else', () => {
    const config = {
      api_key: 'sk-1',
      custom_instructions: 'see https://example.com/docs?x=1#setup',
      hooks: [],
      mcp_servers: {gh: {command: 'gh', env: {GH_HOST: 'github.com', GITHUB_TOKEN: 'ghp-1'}, headers: {Authorization: 'Bearer x'}}},
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
      mcp_servers: {gh: {command: 'gh', env: {GH_HOST: REDACTED, GITHUB_TOKEN: REDACTED}, headers: {Authorization: REDACTED}}},
      model: 'm',
      oauth_credentials: REDACTED,
      permissions: {'exec(curl https://h/x?y)': 'allow'},
      providers: {openai: {api: 'responses', api_key: REDACTED, oauth: REDACTED}},
    })
    expect(JSON.stringify(settingEntries(config, {}))).not.toMatch(/sk-|ghp-|Bearer|"tok"|"cs"/)
  })

  it('keeps only plain flags of MCP arguments, the program of command lines, and the scheme and host of URLs', () => {
    const config = {
      base_url: 'https://u:pw-1@gw.example.com/v1?key=abc&region=eu#frag',
      hooks: [
        {command: 'API_TOKEN=s1 B="two words" curl -H "Authorization: Bearer s2" https://h', event: 'stop'},
        {command: 'exit 2', event: 'stop'},
      ],
      mcp_servers: {
        api: {args: ['--api-key', 'sk-live-123', '--token=tok-2', '--verbose', 'https://x:y@h/p', '-p', '8080', 3], command: ['api-mcp', '--secret', 'sk-3']},
        line: {command: '  srv --token tok-4'},
        web: {url: 'https://u:pw@h/sse/ghp_x?token=abc'},
      },
      model: 'm',
      permissions: {},
      providers: {local: {base_url: 'http://localhost:8080/v1/tok-5'}},
    } as unknown as HanzoConfig
    expect(redactConfig(config)).toEqual({
      base_url: `https://${REDACTED}@gw.example.com/${REDACTED}?${REDACTED}#${REDACTED}`,
      hooks: [
        {command: `API_TOKEN=${REDACTED} B=${REDACTED} curl ${REDACTED}`, event: 'stop'},
        {command: `exit ${REDACTED}`, event: 'stop'},
      ],
      mcp_servers: {
        api: {
          args: ['--api-key', REDACTED, REDACTED, '--verbose', REDACTED, '-p', REDACTED, REDACTED],
          command: ['api-mcp', '--secret', REDACTED],
        },
        line: {command: `srv ${REDACTED}`},
        web: {url: `https://${REDACTED}@h/${REDACTED}/${REDACTED}?${REDACTED}`},
      },
      model: 'm',
      permissions: {},
      providers: {local: {base_url: `http://localhost:8080/${REDACTED}/${REDACTED}`}},
    })
    expect(JSON.stringify(settingEntries(config, {}))).not.toMatch(/sk-|tok-|pw|abc|x:y|s1|s2|two words|ghp_x/)
  })

  it('leaves the merge\'s tier tags out of what it shows', () => {
    const config = {
      hooks: [{command: 'true', event: 'stop', tier: 'project'}],
      mcp_servers: {fs: {command: 'npx', tier: 'user'}},
      model: 'm',
      permissions: {},
    } as unknown as HanzoConfig
    expect(settingEntries(config, {}).map((e) => e.key)).toEqual(['hooks.0.command', 'hooks.0.event', 'mcp_servers.fs.command', 'model'])
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
