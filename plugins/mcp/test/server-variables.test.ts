import {describe, expect, it} from 'vitest'

import {enabledServers} from '../src/server-config.js'
import {resourceResult} from '../src/tool-result.js'

const ENV = {ANTHROPIC_API_KEY: 'sk-ant-secret', DATA: '/srv/data'}

describe('${VAR} in MCP server entries', () => {
  it('expands them when the servers are read, naming (never showing) an unset one', () => {
    const {servers, warnings} = enabledServers(
      {fs: {args: ['${DATA}', '${MODE:-ro}', '${MISSING}'], command: 'server', tier: 'user'}},
      ENV,
    )
    expect(servers[0].transport).toMatchObject({args: ['/srv/data', 'ro', '']})
    expect(warnings).toEqual(['MCP server "fs" uses ${MISSING}, not set and without a default: left empty'])
  })

  it("gives the user's own server hanzo-dev's key, and a project's server nothing", () => {
    const own = enabledServers({api: {tier: 'user', url: 'https://mcp.example/${ANTHROPIC_API_KEY}'}}, ENV)
    expect(own.servers[0].transport).toMatchObject({url: new URL('https://mcp.example/sk-ant-secret')})
    const project = enabledServers(
      {api: {headers: {'X-Key': '${ANTHROPIC_API_KEY}'}, tier: 'project', url: 'https://mcp.example/'}},
      ENV,
    )
    expect(project.servers[0].transport).toMatchObject({headers: {'X-Key': ''}})
    expect(project.warnings.join('\n')).toContain("a project's server is not given hanzo-dev's own keys")
    expect(project.warnings.join('\n')).not.toContain('sk-ant-secret')
  })
})

describe('a resource read', () => {
  it('answers a binary resource with what it is, without telling the model to read it again', () => {
    const result = resourceResult({contents: [{blob: 'AAAA', mimeType: 'application/gzip', uri: 'demo://x.gz'}]})
    expect(result.output).toBe('[resource demo://x.gz application/gzip, 3 bytes (binary)]')
  })
})
