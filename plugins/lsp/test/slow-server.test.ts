import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {toolOk} from '@hanzo-dev/sdk'
import {makeSandbox, runCli, type Sandbox, unwrapped} from '../../../test/helpers/cli.js'
import {editDiagnostics} from '../src/edit-diagnostics.js'
import {lspTools} from '../src/lsp-tools.js'
import {callTool, makeManager, slowServer, writeFiles} from './lsp-fixture.js'

/** Far past every wait below: the server never reports while anyone waits. */
const NEVER_MS = 600_000
const LATE = 'src/a.ts: no diagnostics yet from slow-server after'

/**
 * [first-run] "LSP that never lies": a server that reports after the wait is a wait that timed
 * out, said as such by the command (exit 4), the model's tool (an error) and an edit's result,
 * never "0 errors".
 */
describe('a server that reports after the wait', () => {
  let box: Sandbox
  let project: string
  let server: string

  beforeAll(() => {
    box = makeSandbox('hanzo-lsp-slow-')
    project = join(box.home, 'project')
    server = slowServer(join(box.home, 'bin'), 'slow-server', NEVER_MS)
    writeFiles(project, {'.git/HEAD': 'ref: refs/heads/main\n', 'src/a.ts': 'export const a = 1\n'})
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({lsp: {servers: {typescript: {command: server}}}}),
    )
  })
  afterAll(() => box.cleanup())

  it('lsp diagnostics: not checked, naming the server and the wait, exit 4; --json says complete: false', async () => {
    const env = {...box.env, PATH: '/usr/bin:/bin'}
    const text = await runCli(['lsp', 'diagnostics', 'src/a.ts', '--wait', '1'], {cwd: project, env})
    expect([text.exitCode, text.stdout], text.stderr).toEqual([
      4,
      `${LATE} 1 s (it did not report in time; it may still be loading the project); --wait SECONDS waits longer\n1 file not checked`,
    ])
    expect(text.stdout).not.toMatch(/0 errors/)

    const json = await runCli(['lsp', 'diagnostics', 'src/a.ts', '--wait', '1', '--json'], {cwd: project, env})
    expect(json.exitCode, json.stderr).toBe(4)
    expect(JSON.parse(json.stdout)).toEqual({
      complete: false,
      errors: 0,
      files: [{complete: false, path: 'src/a.ts', server: 'slow-server', waitedMs: 1000}],
      warnings: 0,
    })

    const help = await runCli(['lsp', 'diagnostics', '--help'], {cwd: project, env})
    expect(help.stdout).toContain('--wait=SECONDS')
    expect(help.stdout.replaceAll(/\s+/g, ' ')).toContain(
      "4 no errors found but some file's server did not report within the wait",
    )
    const bad = await runCli(['lsp', 'diagnostics', 'src/a.ts', '--wait', '0'], {cwd: project, env})
    expect(bad.exitCode).toBe(2)
    expect(unwrapped(bad.stderr)).toContain('--wait')
    expect(bad.stderr).not.toMatch(/\bat .*\.js:\d+/)
  })

  it("the model's lsp_diagnostics and an edit's result say the server did not report, never that the file is clean", async () => {
    const {manager} = makeManager(project, {
      client: {coldStartMs: 500, diagnosticsTimeoutMs: 500},
      lsp: {servers: {typescript: {command: server}}},
    })
    try {
      const tool = await callTool(lspTools(manager), 'lsp_diagnostics', {path: 'src/a.ts'}, project)
      expect(tool).toMatchObject({
        error: `${LATE} 0.5 s (it did not report in time; it may still be loading the project): this is not a clean result; call lsp_diagnostics again.`,
        is_error: true,
      })

      const edit = editDiagnostics(manager).wrap(async () => toolOk('Wrote src/a.ts.'))
      const result = await edit(
        {input: {content: 'x', path: 'src/a.ts'}, kind: 'edit', locations: [{path: 'src/a.ts'}], name: 'fs_write'},
        {cwd: project, sessionId: 's', signal: new AbortController().signal},
      )
      expect(result.output).toBe(
        `Wrote src/a.ts.\n\n${LATE} 0.5 s (it did not report in time; it may still be loading the project): this change is not checked; lsp_diagnostics asks again.`,
      )
    } finally {
      await manager.shutdown()
    }
  })
})
