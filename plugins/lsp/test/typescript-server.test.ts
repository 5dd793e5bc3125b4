import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {toolError, toolOk, type ToolExecutorFn} from '@hanzo-dev/sdk'
import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {waitUntil} from '../../../test/helpers/processes.js'
import {editDiagnostics} from '../src/edit-diagnostics.js'
import {lspTools} from '../src/lsp-tools.js'
import type {ServerManager} from '../src/server-manager.js'
import {callTool, groupMembers, makeManager, makeTsProject, processesIn} from './lsp-fixture.js'

const LIB = "const PREFIX = 'hello'\n\nexport function greet(name: string): string {\n  return `${PREFIX} ${name}`\n}\n"
const MAIN =
  "import {greet} from './lib.js'\n\nexport const message: string = greet('world')\nexport const count: number = greet('again')\n"

/** One typescript-language-server for the whole file, found in the project's node_modules/.bin. */
describe('typescript-language-server through the manager, the tools and the edit middleware', () => {
  let box: Sandbox
  let project: string
  let manager: ServerManager
  let reports: string[]
  const call = (name: string, input: Record<string, unknown>) => callTool(lspTools(manager), name, input, project)

  beforeAll(async () => {
    box = makeSandbox('hanzo-lsp-ts-')
    project = join(box.home, 'project')
    makeTsProject(project, {'README.md': 'hello\n', 'src/lib.ts': LIB, 'src/main.ts': MAIN})
    // PATH without the servers: they come from node_modules/.bin.
    // A busy machine loads the project slowly: a wait past it reads as "no diagnostics yet", not as clean.
    const wait = {coldStartMs: 60_000, diagnosticsTimeoutMs: 60_000}
    ;({manager, reports} = makeManager(project, {client: wait, env: {PATH: '/usr/bin:/bin'}}))
    await call('lsp_diagnostics', {path: 'src/main.ts'})
  })
  afterAll(async () => {
    await manager.shutdown()
    box.cleanup()
  })

  it('reports the type error of a file, 1-based, and nothing for a clean one', async () => {
    expect(await call('lsp_diagnostics', {path: 'src/main.ts'})).toEqual(
      toolOk("src/main.ts:4:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]"),
    )
    expect(await call('lsp_diagnostics', {path: join(project, 'src', 'lib.ts')})).toEqual(
      toolOk('src/lib.ts: no errors or warnings.'),
    )
    expect(reports).toEqual([])
  })

  it('answers definition, references, hover and symbols on a known symbol', async () => {
    expect((await call('lsp_definition', {column: 13, line: 4, path: 'src/lib.ts'})).output).toBe(
      "src/lib.ts:1:7: const PREFIX = 'hello'",
    )
    const references = (await call('lsp_references', {column: 17, line: 3, path: 'src/lib.ts'})).output.split('\n')
    expect(references).toEqual(
      expect.arrayContaining([
        'src/lib.ts:3:17: export function greet(name: string): string {',
        "src/main.ts:3:32: export const message: string = greet('world')",
        "src/main.ts:4:30: export const count: number = greet('again')",
      ]),
    )
    expect((await call('lsp_hover', {column: 17, line: 3, path: 'src/lib.ts'})).output).toContain(
      'function greet(name: string): string',
    )
    expect((await call('lsp_symbols', {path: 'src/lib.ts'})).output).toMatch(/^function greet.*\(line 3\)$/m)
  })

  it('runs one server for every file of the language', async () => {
    const pid = (path: string) =>
      manager.cover(path).then((file) => manager.withFile(file!, async (client) => client.pid))
    expect(await pid('src/lib.ts')).toBe(await pid('src/main.ts'))
  })

  it('says why a file gets no answer: missing, not covered, outside the workspace', async () => {
    expect(await call('lsp_hover', {column: 1, line: 1, path: 'src/none.ts'})).toEqual(
      toolError('src/none.ts: no such file'),
    )
    expect((await call('lsp_diagnostics', {path: 'README.md'})).error).toMatch(
      /^README.md: no language server covers this file \(it must be in the workspace .* and be one of: \.ts /,
    )
    expect((await call('lsp_diagnostics', {path: '../outside.ts'})).error).toContain(
      'no language server covers this file',
    )
  })

  describe('after an edit', () => {
    // Stands in for a tool of kind edit (fs_write, or a plugin's): the middleware sees only the call, as the pipeline describes it, and the result.
    const write: ToolExecutorFn = async (call) => {
      if (call.input.content === 'FAIL') return toolError('refused')
      writeFileSync(join(project, String(call.input.path)), String(call.input.content))
      return toolOk(`Wrote ${call.input.path}.`)
    }
    const context = () => ({cwd: project, sessionId: 's', signal: new AbortController().signal})
    const writeThrough = (path: string, content: string, name = 'fs_write') =>
      editDiagnostics(manager).wrap(write)({input: {content, path}, kind: 'edit', locations: [{path}], name}, context())

    it('appends only the diagnostics the edit added, not the ones the file had', async () => {
      const result = await writeThrough('src/main.ts', `${MAIN}export const flag: boolean = greet('x')\n`)
      expect(result).toEqual(
        toolOk(
          'Wrote src/main.ts.\n\nNew diagnostics in src/main.ts after this change (1 error; lines and columns 1-based):\n' +
            "src/main.ts:5:14: error: Type 'string' is not assignable to type 'boolean'. [typescript 2322]",
        ),
      )
    })

    it('appends nothing once the edit fixes them, for a file no server covers, or when the tool failed', async () => {
      expect(await writeThrough('src/main.ts', MAIN.replace('count: number', 'count: string'))).toEqual(
        toolOk('Wrote src/main.ts.'),
      )
      expect(await writeThrough('README.md', 'const x: number = "no"\n')).toEqual(toolOk('Wrote README.md.'))
      expect(await writeThrough('src/main.ts', 'FAIL')).toEqual(toolError('refused'))
      expect(readFileSync(join(project, 'src', 'main.ts'), 'utf8')).toContain('count: string')
    })

    it('counts a new file as having had none, whatever the edit tool is called', async () => {
      const result = await writeThrough('src/fresh.ts', "import {greet} from './lib.js'\ngreet(42)\n", 'plugin_writer')
      expect(result.output).toContain(
        "src/fresh.ts:2:7: error: Argument of type 'number' is not assignable to parameter of type 'string'. [typescript 2345]",
      )
    })
  })

  it('shutdown ends the server and everything it started', async () => {
    const file = await manager.cover('src/lib.ts')
    const pid = (await manager.withFile(file!, async (client) => client.pid))!
    expect(groupMembers(pid).length).toBeGreaterThan(0)
    expect(processesIn(await manager.workspaceRoot())).toContain(pid)
    await manager.shutdown()
    await waitUntil(() => groupMembers(pid).length === 0, 'the server process group is gone')
    expect(processesIn(await manager.workspaceRoot())).toEqual([])
  })
})
