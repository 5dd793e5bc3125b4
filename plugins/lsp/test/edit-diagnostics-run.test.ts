import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox, unwrapped} from '../../../test/helpers/cli.js'
import {waitUntil} from '../../../test/helpers/processes.js'
import {makeTsProject, processesIn} from './lsp-fixture.js'

const BROKEN = 'export const total: number = "forty-two"\n'
const FIXED = 'export const total: number = 42\n'
const DIAGNOSTIC = "src/total.ts:1:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]"

interface ToolResultEvent {
  type: 'tool_result'
  name: string
  output: string
  is_error: boolean
}

/**
 * HIP-301 §8 end to end: `hanzo-dev run` on the scripted model, in a TypeScript project whose
 * server is a dev dependency. The model writes a type error and its tool result carries the
 * diagnostic (the fake model's `expect` checks the history it is sent), then fixes it and gets
 * nothing added; a Python file without a server costs one warning and the run goes on.
 */
describe('diagnostics in the tool result of an edit (hanzo-dev run)', () => {
  let box: Sandbox
  let project: string
  let run: Awaited<ReturnType<typeof runCli>>
  let results: ToolResultEvent[]

  beforeAll(async () => {
    box = makeSandbox('hanzo-lsp-run-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    makeTsProject(project, {'src/index.ts': "export * from './total.js'\n"})
    const script = join(box.home, 'model.json')
    const write = (path: string, content: string) => ({arguments: {content, path}, name: 'fs_write'})
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          {
            expect: {
              tools_include: [
                'fs_write',
                'lsp_diagnostics',
                'lsp_definition',
                'lsp_references',
                'lsp_hover',
                'lsp_symbols',
              ],
            },
            tool_calls: [write('src/total.ts', BROKEN)],
          },
          {
            expect: {tool_result_contains: DIAGNOSTIC},
            text: 'A type error; fixing it.',
            tool_calls: [write('src/total.ts', FIXED)],
          },
          {
            expect: {tool_result_contains: 'Replaced src/total.ts'},
            tool_calls: [{arguments: {path: 'src/total.ts'}, name: 'lsp_diagnostics'}],
          },
          {
            expect: {tool_result_contains: 'src/total.ts: no errors or warnings.'},
            tool_calls: [write('tool.py', 'x: int = "no"\n')],
          },
          {expect: {tool_result_contains: 'Created tool.py'}, text: 'Done.'},
        ],
      }),
    )
    // No server on PATH: typescript-language-server comes from the project's node_modules/.bin (the user allows it); Python's is one that does not exist.
    const env = {...box.env, PATH: '/usr/bin:/bin'}
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    // Sandbox off: this file is about diagnostics (test/e2e/lsp-sandbox.test.ts runs a server
    // confined), and the linked node_modules may be under /tmp, which a confined server does not see.
    const settings = {
      // A busy machine may take tsserver past the default wait for the edit's diagnostics.
      lsp: {diagnostics_timeout_ms: 60_000, project_servers: true, servers: {python: {command: 'no-such-pyright'}}},
      sandbox: {mode: 'off'},
    }
    writeFileSync(join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), JSON.stringify(settings))
    run = await runCli(
      [
        'run',
        'add a total',
        '--fake-model',
        script,
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
      .map((line) => JSON.parse(line))
      .filter((event) => event.type === 'tool_result')
  })
  afterAll(() => box.cleanup())

  it('gives the model the diagnostic its write caused, and nothing once it fixed it', () => {
    expect(run.exitCode, run.stderr).toBe(0)
    expect(results.map((r) => [r.name, r.is_error])).toEqual([
      ['fs_write', false],
      ['fs_write', false],
      ['lsp_diagnostics', false],
      ['fs_write', false],
    ])
    expect(results[0].output).toBe(
      `Created src/total.ts (${BROKEN.length} bytes).\n\nNew diagnostics in src/total.ts after this change (1 error; lines and columns 1-based):\n${DIAGNOSTIC}`,
    )
    expect(results[1].output).toBe(`Replaced src/total.ts (${FIXED.length} bytes; it had ${BROKEN.length} bytes).`)
    expect(readFileSync(join(project, 'src', 'total.ts'), 'utf8')).toBe(FIXED)
  })

  it('leaves no server running when the run ends', async () => {
    await waitUntil(() => processesIn(project).length === 0, 'no process works in the project')
  })

  it('goes on without a server that is not there, saying so once', () => {
    expect(results[3].output).toBe('Created tool.py (14 bytes).')
    const warnings = unwrapped(run.stderr).match(
      /Warning: lsp: Python: [^;]*; the session goes on without Python diagnostics/g,
    )
    expect(warnings).toEqual([
      'Warning: lsp: Python: no-such-pyright not found on PATH or in node_modules/.bin (check lsp.servers.python.command in your user settings); the session goes on without Python diagnostics',
    ])
  })
})
