import {describe, expect, it} from 'vitest'

import {parseMcpServers} from '../src/server-config.js'
import {displayUrl} from '../src/index.js'

describe('parseMcpServers', () => {
  it('reads stdio servers in both command forms and http servers', () => {
    const {servers} = parseMcpServers({
      everything: {args: ['-y', '@modelcontextprotocol/server-everything'], command: 'npx'},
      fs: {args: ['/srv'], command: ['node', 'server.js']},
      remote: {disabled: true, url: 'https://mcp.example.com/mcp'},
    })
    expect(servers).toEqual([
      {
        disabled: false,
        name: 'everything',
        server: {
          disabled: false,
          name: 'everything',
          transport: {args: ['-y', '@modelcontextprotocol/server-everything'], command: 'npx', type: 'stdio'},
        },
      },
      {
        disabled: false,
        name: 'fs',
        server: {disabled: false, name: 'fs', transport: {args: ['server.js', '/srv'], command: 'node', type: 'stdio'}},
      },
      {
        disabled: true,
        name: 'remote',
        server: {
          disabled: true,
          name: 'remote',
          transport: {type: 'http', url: new URL('https://mcp.example.com/mcp')},
        },
      },
    ])
  })

  it.each([
    [{command: 'x', url: 'https://a'}, /either "command" \(stdio\) or "url" \(http\), not both/],
    [{args: ['x']}, /needs "command"/],
    [{command: []}, /"command" must be a program name/],
    [{command: ''}, /"command" must be a program name/],
    [{command: 'x', args: 'y'}, /"args" must be a list of strings/],
    [{url: 'not a url'}, /"url" must be an http/],
    [{url: 'file:///etc/passwd'}, /"url" must be an http/],
    [{command: 'x', disabled: 'yes'}, /"disabled" must be true or false/],
    [{command: 'x', log_level: 'verbose'}, /"log_level" must be one of debug, info, notice, warning, error/],
    ['npx server', /must be an object/],
    [
      {url: 'https://a', oauth: {grant: 'password'}},
      /"oauth.grant" must be "authorization_code" or "client_credentials"/,
    ],
    [
      {url: 'https://a', oauth: {client_id: 'c', grant: 'client_credentials'}},
      /needs "oauth.client_id" and "oauth.client_secret"/,
    ],
  ])('reports %j', (entry, problem) => {
    expect(parseMcpServers({bad: entry}).servers).toEqual([
      {disabled: false, name: 'bad', problem: expect.stringMatching(problem)},
    ])
  })

  it('reads a machine-to-machine server: the client credentials grant with its client', () => {
    const oauth = {client_id: 'c', client_secret: 's', grant: 'client_credentials'}
    expect(parseMcpServers({m2m: {oauth, url: 'https://h/mcp'}}).servers[0]).toMatchObject({
      server: {oauth: {clientId: 'c', clientSecret: 's', grant: 'client_credentials'}},
    })
  })

  it('reads the level a server should log at', () => {
    expect(parseMcpServers({quiet: {command: 'x', log_level: 'warning'}}).servers[0]).toMatchObject({
      server: {logLevel: 'warning'},
    })
  })

  it('keeps the tier the settings loader tags a server with, on invalid entries too', () => {
    const {servers} = parseMcpServers({
      bad: {tier: 'local'},
      local: {command: 'x', tier: 'project'},
      remote: {tier: 'user', url: 'https://h/mcp'},
    })
    expect(servers.map((s) => [s.name, s.tier, 'problem' in s])).toEqual([
      ['bad', 'local', true],
      ['local', 'project', false],
      ['remote', 'user', false],
    ])
  })

  it('accepts no servers and rejects a list', () => {
    expect(parseMcpServers(undefined)).toEqual({servers: []})
    expect(parseMcpServers([{command: 'x'}]).problem).toMatch(/must map server names/)
  })
})

describe('displayUrl', () => {
  it('keeps scheme, host, port, path and query names; redacts user info, key-like segments, query values and the fragment', () => {
    expect(displayUrl(new URL('https://me:s3cret@mcp.example.com:8443/v1/mcp?token=s3cret#x'))).toBe(
      'https://[redacted]@mcp.example.com:8443/v1/mcp?token=[redacted]#[redacted]',
    )
    expect(displayUrl('https://mcp.example.com/sse/ghp_SECRETPATH?x=1')).toBe(
      'https://mcp.example.com/sse/[redacted]?x=[redacted]',
    )
    expect(displayUrl('https://mcp.example.com')).toBe('https://mcp.example.com/')
    expect(displayUrl('not a url ghp_SECRET')).toBe('[redacted]')
  })
})
