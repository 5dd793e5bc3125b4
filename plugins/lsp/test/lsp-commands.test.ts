import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox, unwrapped} from '../../../test/helpers/cli.js'
import {makeTsProject, writeFiles} from './lsp-fixture.js'

const LIB = 'export function greet(name: string): string {\n  return name\n}\n'
const MAIN = "import {greet} from './lib.js'\n\nexport const count: number = greet('again')\n"
/**
 * The servers are the project's dev dependencies: the user lets the project's own run. A busy
 * machine loads the project past the default 10 s: the user's longer wait keeps references and
 * hover from answering before tsserver knows the other files.
 */
const USER_LSP = {diagnostics_timeout_ms: 60_000, project_servers: true}

/** The commands as a script runs them: the built CLI, a server per run, exit codes to branch on. */
describe('lsp diagnostics, definition, references, hover (built CLI)', () => {
  let box: Sandbox
  let project: string
  const run = (...args: string[]) => runCli(args, {cwd: project, env: {...box.env, PATH: '/usr/bin:/bin'}})
  const userSettings = () => join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')

  beforeAll(() => {
    box = makeSandbox('hanzo-lsp-cli-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    makeTsProject(project, {'src/lib.ts': LIB, 'src/main.ts': MAIN})
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(userSettings(), JSON.stringify({lsp: USER_LSP}))
  })
  afterAll(() => box.cleanup())

  it('diagnostics: one line per problem, a summary, exit 1 when there are errors; --json for scripts', async () => {
    const text = await run('lsp', 'diagnostics', 'src/main.ts', 'src/lib.ts')
    expect(text.stdout).toBe(
      "src/main.ts:3:14: error: Type 'string' is not assignable to type 'number'. [typescript 2322]\n1 error, 0 warnings in 2 files",
    )
    expect(text.exitCode, text.stderr).toBe(1)
    const json = await run('lsp', 'diagnostics', 'src/lib.ts', '--json')
    expect(json.exitCode, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({
      complete: true,
      errors: 0,
      files: [{complete: true, diagnostics: [], path: 'src/lib.ts'}],
      warnings: 0,
    })
  })

  it('references and hover at FILE:LINE:COL, 1-based', async () => {
    const references = await run('lsp', 'references', 'src/lib.ts:1:17')
    expect(references.exitCode, references.stderr).toBe(0)
    expect(references.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        'src/lib.ts:1:17: export function greet(name: string): string {',
        "src/main.ts:3:30: export const count: number = greet('again')",
      ]),
    )
    const hover = await run('lsp', 'hover', 'src/main.ts:3:30', '--json')
    expect(hover.exitCode, hover.stderr).toBe(0)
    expect(JSON.parse(hover.stdout)).toMatchObject({column: 30, file: 'src/main.ts', line: 3})
    expect(JSON.parse(hover.stdout).hover).toContain('greet(name: string): string')
  })

  it('bad input: a clear error and exit 2, without starting a server', async () => {
    const missing = await run('lsp', 'diagnostics', 'src/none.ts')
    expect([missing.exitCode, unwrapped(missing.stderr)]).toEqual([
      2,
      expect.stringContaining('Error: src/none.ts: no such file'),
    ])
    const position = await run('lsp', 'definition', 'src/lib.ts:0:4')
    expect(position.exitCode).toBe(2)
    expect(unwrapped(position.stderr)).toContain(
      '"src/lib.ts:0:4" is not FILE:LINE:COL: give the file, then the line and the column, both counted from 1 (e.g. src/app.ts:12:5)',
    )
    const uncovered = await run('lsp', 'hover', 'tsconfig.json:1:1')
    expect(uncovered.exitCode).toBe(2)
    expect(unwrapped(uncovered.stderr)).toContain('tsconfig.json: no language server covers this file')
    expect(missing.stderr + position.stderr + uncovered.stderr).not.toMatch(/\bat .*\.js:\d+/)
  })

  it('a server that is not there: exit 3 and what to look at', async () => {
    const settings = userSettings()
    writeFileSync(
      settings,
      JSON.stringify({lsp: {project_servers: true, servers: {typescript: {command: 'no-such-tsserver'}}}}),
    )
    try {
      const result = await run('lsp', 'diagnostics', 'src/lib.ts')
      expect(result.exitCode).toBe(3)
      expect(unwrapped(result.stderr)).toContain(
        'no-such-tsserver not found on PATH or in node_modules/.bin (check lsp.servers.typescript.command in your user settings)',
      )
    } finally {
      writeFileSync(settings, JSON.stringify({lsp: USER_LSP}))
    }
  })

  it("never runs a server from the project's node_modules/.bin unless the user's own settings allow it", async () => {
    const cloned = join(box.home, 'cloned')
    const marker = join(box.home, 'ran')
    writeFiles(cloned, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'src/a.ts': 'export const a = 1\n',
      'tsconfig.json': '{}',
    })
    writeFiles(cloned, {'.hanzo/settings.json': JSON.stringify({lsp: {project_servers: true}})})
    mkdirSync(join(cloned, 'node_modules', '.bin'), {recursive: true})
    writeFileSync(join(cloned, 'node_modules', '.bin', 'typescript-language-server'), `#!/bin/sh\ntouch ${marker}\n`, {
      mode: 0o755,
    })
    writeFileSync(userSettings(), '{}')
    try {
      const result = await runCli(['lsp', 'diagnostics', 'src/a.ts'], {
        cwd: cloned,
        env: {...box.env, PATH: '/usr/bin:/bin'},
      })
      expect(result.exitCode).toBe(3)
      const stderr = unwrapped(result.stderr)
      expect(stderr).toContain(
        '.hanzo/settings.json: lsp.project_servers: ignored: this setting is only read from your user settings',
      )
      expect(stderr).toContain(
        "is held back as the project's own program: it is inside the project (to let it run: hanzo-dev config set lsp.project_servers true)",
      )
      const servers = await runCli(['lsp', 'servers', '--json'], {
        cwd: cloned,
        env: {...box.env, PATH: '/usr/bin:/bin'},
      })
      expect(JSON.parse(servers.stdout).languages).toEqual([
        expect.objectContaining({
          id: 'typescript',
          install: 'to let it run: hanzo-dev config set lsp.project_servers true',
          server: null,
        }),
      ])
      expect(existsSync(marker)).toBe(false)
    } finally {
      writeFileSync(userSettings(), JSON.stringify({lsp: USER_LSP}))
    }
  })

  it("a project's own lsp.servers is ignored: only user settings name server commands", async () => {
    mkdirSync(join(project, '.hanzo'), {recursive: true})
    writeFileSync(
      join(project, '.hanzo', 'settings.json'),
      JSON.stringify({lsp: {servers: {typescript: {command: './evil.sh'}}}}),
    )
    const result = await run('lsp', 'servers')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(unwrapped(result.stderr)).toContain(
      '.hanzo/settings.json: lsp.servers: ignored: this setting is only read from your user settings',
    )
    expect(result.stdout).toContain('typescript-language-server')
    expect(result.stdout).not.toContain('evil.sh')
  })
})
