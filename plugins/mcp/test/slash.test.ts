import {describe, expect, it} from 'vitest'

import type {McpServers} from '../src/servers.js'
import {mcpSlashCommands, statusItem} from '../src/slash.js'

const context = {args: '', argv: [], cwd: '/', signal: new AbortController().signal}

describe('/mcp', () => {
  it("shows each server's state: tools and ping when connected, why when failed", async () => {
    const servers = {
      pings: async () => new Map([['everything', 3]]),
      status: () => [
        {name: 'everything', state: 'connected', tools: 11, transport: 'stdio'},
        {error: 'connection refused', hint: 'is it running?', name: 'remote', state: 'failed', transport: 'http'},
      ],
    } as unknown as McpServers
    const [command] = mcpSlashCommands(servers)
    expect(await command.run(context)).toEqual({
      message:
        'MCP servers (2):\n  everything  stdio  connected, 11 tool(s), ping 3 ms\n  remote      http  failed: connection refused (is it running?)',
    })
  })

  it('says how to add one when the session has none', async () => {
    const [command] = mcpSlashCommands()
    expect((await command.run(context))?.message).toMatch(
      /^No MCP servers in this session \(hanzo-dev mcp add adds one\)/,
    )
  })
})

describe('the status line item', () => {
  it('counts the connected servers of all, and says how many failed', () => {
    const server = (state: string) => ({name: state, state, transport: 'stdio'}) as const
    expect(statusItem([server('connected'), server('connected')] as never)).toBe('mcp: 2/2')
    expect(statusItem([server('connected'), server('connecting'), server('failed')] as never)).toBe(
      'mcp: 1/3 (1 failed: /mcp)',
    )
  })
})
