import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {lspTools} from '../src/lsp-tools.js'
import type {ServerManager} from '../src/server-manager.js'
import {callTool, makeManager, SERVER_BIN, writeFiles} from './lsp-fixture.js'

const APP = 'def double(x: int) -> int:\n    return x * 2\n\n\nlabel: str = double(21)\n'

/** One pyright-langserver for the file, found on PATH; it analyses nothing until its configuration requests are answered. */
describe('pyright', () => {
  let box: Sandbox
  let project: string
  let manager: ServerManager
  const call = (name: string, input: Record<string, unknown>) => callTool(lspTools(manager), name, input, project)

  beforeAll(() => {
    box = makeSandbox('hanzo-lsp-py-')
    project = join(box.home, 'project')
    writeFiles(project, {'app.py': APP, 'pyproject.toml': '[project]\nname = "app"\n'})
    ;({manager} = makeManager(project, {env: {PATH: `${SERVER_BIN}:/usr/bin:/bin`}}))
  })
  afterAll(async () => {
    await manager.shutdown()
    box.cleanup()
  })

  it('reports the type error of a Python file', async () => {
    const result = await call('lsp_diagnostics', {path: 'app.py'})
    expect(result.is_error, result.error ?? '').toBe(false)
    expect(result.output).toMatch(
      /^app\.py:5:14: error: Type "int" is not assignable to declared type "str"; .*\[Pyright reportAssignmentType\]$/,
    )
  })

  it('answers hover and symbols', async () => {
    expect((await call('lsp_hover', {column: 5, line: 1, path: 'app.py'})).output).toContain(
      'def double(x: int) -> int',
    )
    expect((await call('lsp_symbols', {path: 'app.py'})).output).toMatch(/^function double.*\(line 1\)$/m)
  })
})
