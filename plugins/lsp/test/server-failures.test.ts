import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {toolOk} from '@hanzo-dev/sdk'
import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {waitUntil} from '../../../test/helpers/processes.js'
import {editDiagnostics, newSince} from '../src/edit-diagnostics.js'
import {globMatches, languageFor, readLspSettings} from '../src/lsp-settings.js'
import {lspTools} from '../src/lsp-tools.js'
import type {ServerManager} from '../src/server-manager.js'
import {callTool, makeManager, processesWith, writeFiles} from './lsp-fixture.js'

/** A sleep no other process runs, to find the hung server's processes by. */
const HANG_CHILD = `${600 + (process.pid % 1000)}.${Date.now() % 1000}`

describe('servers that do not work', () => {
  let box: Sandbox
  let project: string
  let manager: ServerManager
  let reports: string[]
  const call = (name: string, path: string) => callTool(lspTools(manager), name, {path}, project)

  beforeAll(() => {
    box = makeSandbox('hanzo-lsp-fail-')
    project = join(box.home, 'project')
    const crash = join(box.home, 'crash-server')
    const hang = join(box.home, 'hang-server')
    writeFileSync(crash, '#!/bin/sh\necho "boom: no config here" >&2\nexit 3\n', {mode: 0o755})
    // Reads nothing and answers nothing, with a child in its process group.
    writeFileSync(hang, `#!/bin/sh\nsleep ${HANG_CHILD} &\nexec sleep ${HANG_CHILD}\n`, {mode: 0o755})
    writeFiles(project, {'a.ts': 'export const a = 1\n', 'b.py': 'b = 1\n', 'c.go': 'package c\n'})
    const lsp = {
      servers: {go: {command: hang}, python: {command: crash}, typescript: {command: 'no-such-language-server'}},
    }
    ;({manager, reports} = makeManager(project, {client: {graceMs: 200, initializeTimeoutMs: 500}, lsp}))
  })
  afterAll(async () => {
    await manager.shutdown()
    box.cleanup()
  })

  it('a command that does not exist: said once, with the setting to check', async () => {
    const first = await call('lsp_diagnostics', 'a.ts')
    expect(first.is_error).toBe(true)
    expect(first.error).toBe(
      'TypeScript / JavaScript: no-such-language-server not found on PATH or in node_modules/.bin (check lsp.servers.typescript.command in your user settings)',
    )
    expect((await call('lsp_symbols', 'a.ts')).error).toBe(first.error)
    expect(reports).toEqual([`${first.error}; the session goes on without TypeScript / JavaScript diagnostics`])
  })

  it('a server that crashes at start: its exit and its last stderr line', async () => {
    expect((await call('lsp_diagnostics', 'b.py')).error).toMatch(
      /^Python language server .*crash-server did not start: .*crash-server exited \(code 3\): boom: no config here$/,
    )
  })

  it('a server that never answers initialize: a timeout, and its process group is ended', async () => {
    expect((await call('lsp_diagnostics', 'c.go')).error).toMatch(
      /^Go language server .*hang-server did not start: .*hang-server did not answer initialize within 500 ms$/,
    )
    await waitUntil(() => processesWith(HANG_CHILD).length === 0, 'the hung server and its child are gone')
  })

  it('an edit goes on without diagnostics, and each failure was reported once', async () => {
    const edit = editDiagnostics(manager).wrap(async () => toolOk('Wrote a.ts.'))
    expect(
      await edit(
        {input: {content: 'x', path: 'a.ts'}, name: 'fs_write'},
        {cwd: project, sessionId: 's', signal: new AbortController().signal},
      ),
    ).toEqual(toolOk('Wrote a.ts.'))
    expect(reports).toHaveLength(3)
  })
})

describe('a server the sandbox cannot confine', () => {
  let box: Sandbox
  beforeAll(() => {
    box = makeSandbox('hanzo-lsp-unconfined-')
  })
  afterAll(() => box.cleanup())

  it("is held back with the sandbox's reason, by the tools and on an edit alike: never started unconfined", async () => {
    const project = join(box.home, 'project')
    const server = join(box.home, 'server')
    writeFileSync(server, `#!/bin/sh\ntouch ${join(box.home, 'ran')}\n`, {mode: 0o755})
    writeFiles(project, {'a.ts': 'export const a = 1\n'})
    const {manager, reports} = makeManager(project, {lsp: {servers: {typescript: {command: server}}}})
    const refused =
      'the sandbox (workspace mode) cannot confine processes here (bubblewrap: not found; unshare: not found)'
    const context = {
      confineProcess: async () => ({refused}),
      cwd: project,
      sessionId: 's',
      signal: new AbortController().signal,
    }
    const edit = editDiagnostics(manager).wrap(async () => toolOk('Wrote a.ts.'))
    expect(await edit({input: {content: 'x', path: 'a.ts'}, name: 'fs_write'}, context)).toEqual(toolOk('Wrote a.ts.'))
    const result = await lspTools(manager)[0].execute({path: 'a.ts'}, context)
    expect(result).toMatchObject({
      error: `TypeScript / JavaScript language server ${server} is held back: ${refused}`,
      is_error: true,
    })
    expect(reports).toEqual([`${result.error}; the session goes on without TypeScript / JavaScript diagnostics`])
    expect(existsSync(join(box.home, 'ran'))).toBe(false)
    await manager.shutdown()
  })
})

describe('lsp settings', () => {
  it('adds a server for its globs and changes a built-in one', () => {
    const {diagnosticsTimeoutMs, languages} = readLspSettings({
      lsp: {
        diagnostics_timeout_ms: 5000,
        servers: {
          rust: {disabled: true},
          typescript: {args: ['--stdio', '--log-level', '4']},
          vue: {args: ['--stdio'], command: 'vue-language-server', files: ['**/*.vue']},
        },
      },
    })
    expect(diagnosticsTimeoutMs).toBe(5000)
    expect(languages.map((l) => l.id)).toEqual(['vue', 'typescript', 'python', 'go', 'c'])
    expect(languages.find((l) => l.id === 'typescript')?.servers[0]).toMatchObject({
      args: ['--stdio', '--log-level', '4'],
      command: 'typescript-language-server',
    })
    expect(languageFor(languages, 'web/App.vue')).toMatchObject({language: {id: 'vue'}, languageId: 'vue'})
    expect(languageFor(languages, 'src/App.tsx')?.languageId).toBe('typescriptreact')
    expect(languageFor(languages, 'main.rs')).toBeUndefined()
  })

  it.each([
    [{lsp: []}, /^lsp must be an object/],
    [
      {lsp: {diagnostics_timeout_ms: '3s'}},
      /^lsp\.diagnostics_timeout_ms must be a whole number of milliseconds from 0 to 120000, found "3s"$/,
    ],
    [
      {lsp: {servers: {typescript: {command: ''}}}},
      /^lsp\.servers\.typescript\.command must be the server's executable/,
    ],
    [
      {lsp: {servers: {typescript: {cmd: 'x'}}}},
      /^lsp\.servers\.typescript\.cmd is not a server setting \(known: command, args, files, language_id, disabled\)$/,
    ],
    [{lsp: {servers: {vue: {command: 'vls'}}}}, /^lsp\.servers\.vue\.files is missing/],
    [{lsp: {servers: {vue: {files: ['*.vue']}}}}, /^lsp\.servers\.vue\.command is missing/],
    [{lsp: {servers: {vue: {command: 'vls', files: []}}}}, /^lsp\.servers\.vue\.files must be a non-empty list/],
    [{lsp: {servers: {python: {args: '--stdio'}}}}, /^lsp\.servers\.python\.args must be a list of strings$/],
  ])('refuses %j naming the key', (settings, message) => {
    expect(() => readLspSettings(settings)).toThrow(message)
  })

  it('matches globs by path, and by file name when they have no slash', () => {
    expect(globMatches('**/*.vue', 'a/b/c.vue')).toBe(true)
    expect(globMatches('**/*.vue', 'c.vue')).toBe(true)
    expect(globMatches('*.vue', 'a/b/c.vue')).toBe(true)
    expect(globMatches('src/*.{vue,svelte}', 'src/x.svelte')).toBe(true)
    expect(globMatches('src/*.vue', 'src/a/x.vue')).toBe(false)
    expect(globMatches('*.vue', 'a.vuex')).toBe(false)
  })
})

describe('newSince', () => {
  const d = (message: string, line: number) => ({
    message,
    range: {end: {character: 1, line}, start: {character: 0, line}},
    severity: 1 as const,
  })
  it('compares by what a diagnostic says, so one the edit only moved is not new', () => {
    expect(newSince([d('a', 1), d('b', 2)], [d('a', 5), d('b', 6), d('b', 9), d('c', 1)])).toEqual([
      d('b', 9),
      d('c', 1),
    ])
  })
})
