import {REDACTED} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {hostAllowed, redactConfig, settingEntries} from '../../../src/core/config/index.js'
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
