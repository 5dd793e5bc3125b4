import {execFileSync} from 'node:child_process'
import {cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {processesWith} from '../../plugins/lsp/test/lsp-fixture.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {REPO_ROOT, runCli} from '../helpers/cli.js'
import {waitUntil} from '../helpers/processes.js'

const BROKEN = 'export const total: number = "forty-two"\n'
const DIAGNOSTIC = "src/total.ts:1:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]"

interface ToolResultEvent {
  type: string
  name?: string
  is_error?: boolean
  output?: string
}

/**
 * [security-3] item 3 (b): with the project's own servers allowed and the sandbox in workspace
 * mode, the model writes `node_modules/.bin/typescript-language-server`, makes it executable, and
 * edits a .ts file: the server that edit starts runs under bubblewrap like exec, so its write
 * outside the workspace fails, while it still answers (it hands over to the real server). The
 * home is under /var/tmp: a write to /tmp would land in the sandbox's private /tmp and prove nothing.
 */
describe('a language server the model planted runs confined (sandbox workspace, lsp.project_servers)', () => {
  let home: string
  let project: string
  let outside: string
  let model: FakeModel
  let run: Awaited<ReturnType<typeof runCli>>
  let results: ToolResultEvent[]

  beforeAll(async () => {
    home = realpathSync(mkdtempSync('/var/tmp/hanzo-e2e-lsp-sandbox-'))
    project = join(home, 'proj')
    outside = join(home, 'outside')
    mkdirSync(join(project, 'src'), {recursive: true})
    mkdirSync(outside)
    execFileSync('git', ['init', '-q'], {cwd: project})
    // No @types: the project loads in a fraction of the time.
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({compilerOptions: {strict: true, types: []}, include: ['src']}),
    )
    mkdirSync(join(home, '.config', 'hanzo'), {recursive: true})
    // A busy machine may take tsserver, cold and confined, past the default wait for the edit's diagnostics.
    const lsp = {diagnostics_timeout_ms: 60_000, project_servers: true}
    writeFileSync(join(home, '.config', 'hanzo', 'settings.json'), JSON.stringify({lsp, sandbox: {mode: 'workspace'}}))
    // The real server, copied beside the project: the repository may be under /tmp, which a
    // confined process does not see (it gets a private one).
    const tools = join(home, 'tools', 'node_modules')
    for (const name of ['typescript', 'typescript-language-server'])
      cpSync(join(REPO_ROOT, 'node_modules', name), join(tools, name), {dereference: true, recursive: true})
    const planted = [
      '#!/bin/sh',
      `if echo pwned > ${outside}/marker 2>/dev/null; then echo wrote; else echo refused; fi > ${project}/attempt`,
      `exec ${process.execPath} ${join(tools, 'typescript-language-server', 'lib', 'cli.mjs')} "$@"`,
    ].join('\n')
    model = await startFakeModel({
      turns: [
        {
          tool_calls: [
            {
              arguments: {content: `${planted}\n`, path: 'node_modules/.bin/typescript-language-server'},
              name: 'fs_write',
            },
          ],
        },
        {tool_calls: [{arguments: {command: 'chmod +x node_modules/.bin/typescript-language-server'}, name: 'exec'}]},
        {tool_calls: [{arguments: {content: BROKEN, path: 'src/total.ts'}, name: 'fs_write'}]},
        {text: 'Done.'},
      ],
    })
    const env = {
      HOME: home,
      NO_COLOR: '1',
      PATH: '/usr/bin:/bin',
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
    }
    run = await runCli(
      [
        'run',
        'add a total',
        '--base-url',
        model.url,
        '--permission-mode',
        'allow-all',
        '--output-format',
        'stream-json',
      ],
      {cwd: project, env},
    )
    results = run.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as ToolResultEvent)
      .filter((event) => event.type === 'tool_result')
  })
  afterAll(async () => {
    await model.close()
    rmSync(home, {force: true, recursive: true})
  })

  it('the sandbox wraps the lsp middleware: the host applies middleware in the order of the root package.json', () => {
    const plugins: string[] = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).oclif.plugins
    const at = (name: string) => plugins.indexOf(`@hanzo-dev/plugin-${name}`)
    expect(at('hooks')).toBeLessThan(at('sandbox'))
    expect(at('sandbox')).toBeLessThan(at('lsp'))
  })

  it("starts the planted server under the sandbox: its write outside the workspace fails, and it still answers the edit's diagnostics", async () => {
    expect(run.exitCode, run.stderr).toBe(0)
    expect(results.map((r) => [r.name, r.is_error])).toEqual([
      ['fs_write', false],
      ['exec', false],
      ['fs_write', false],
    ])
    expect(readFileSync(join(project, 'attempt'), 'utf8')).toBe('refused\n')
    expect(existsSync(join(outside, 'marker'))).toBe(false)
    expect(results[2].output).toContain(DIAGNOSTIC)
    await waitUntil(() => processesWith(project).length === 0, 'no server outlives the run')
  })
})
