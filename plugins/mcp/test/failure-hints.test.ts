import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {servers, tempDir} from './mcp-fixtures.js'

describe('the hint of a server that failed', () => {
  let temp: Awaited<ReturnType<typeof tempDir>>
  beforeAll(async () => {
    temp = await tempDir()
  })
  afterAll(() => temp?.remove())

  it('a process that exited says how, and where its log is, not to raise the start-up timeout', async () => {
    const warnings: string[] = []
    const mcp = await servers(
      [
        {
          disabled: false,
          name: 'crash',
          transport: {args: ['-c', 'echo boom >&2; exit 3'], command: 'sh', type: 'stdio'},
        },
      ],
      temp.dir,
      warnings,
    )
    await mcp.start()
    const [status] = mcp.status()
    expect(status).toMatchObject({
      error: expect.stringContaining('MCP server "crash" failed starting'),
      hint: `its process exited (code 3); its log is ${mcp.connection('crash')!.logFile}`,
      state: 'failed',
    })
    expect(warnings.join('\n')).not.toContain('startup_timeout_ms')
    await mcp.close()
  })
})
