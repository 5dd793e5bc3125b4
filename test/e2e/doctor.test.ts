import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js'

describe('hanzo-dev doctor', () => {
  let box: Sandbox
  beforeEach(() => {
    box = makeSandbox()
  })
  afterEach(() => box.cleanup())

  it('reports core checks and one group per core plugin, as JSON', async () => {
    const {exitCode, stdout} = await runCli(['doctor', '--json'], {cwd: box.home, env: box.env})
    const report = JSON.parse(stdout)
    const sources = new Set(report.checks.map((c: {source: string}) => c.source))
    for (const p of ['core', 'git', 'lsp', 'hooks', 'sandbox', 'agents', 'mcp']) {
      expect([...sources].some((s) => s === p || s === `@hanzo-dev/plugin-${p}`)).toBe(true)
    }

    expect(exitCode).toBe(report.ok ? 0 : 1)
  })
})
