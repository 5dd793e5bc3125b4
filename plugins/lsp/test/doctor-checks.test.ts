import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {useSandboxDirs} from '../../../test/helpers/cli.js'
import {lspChecks} from '../src/doctor-checks.js'
import {detectLanguages, LANGUAGES} from '../src/languages.js'
import {chooseServer} from '../src/server-lookup.js'

const dirs = useSandboxDirs('hanzo-lsp-', 'project', 'bin')

function installServer(name: string): string {
  const path = join(dirs.bin, name)
  writeFileSync(path, '#!/bin/sh\nexit 0\n', {mode: 0o755})
  return path
}

function touch(name: string): void {
  writeFileSync(join(dirs.project, name), '')
}

const host = (settings: Record<string, unknown> = {}) => ({
  cwd: dirs.project,
  env: {PATH: dirs.bin},
  projectRoot: dirs.project,
  settings,
})
const lookup = () => ({cwd: dirs.project, env: {PATH: dirs.bin}, projectServers: false})

describe('detectLanguages', () => {
  it('reads marker files in the project root', async () => {
    touch('tsconfig.json')
    touch('go.mod')
    expect((await detectLanguages(dirs.project)).map((l) => l.id)).toEqual(['typescript', 'go'])
  })

  it('finds nothing in an empty directory', async () => {
    expect(await detectLanguages(dirs.project)).toEqual([])
  })
})

describe('chooseServer', () => {
  it('prefers the first server of a language that is on PATH', async () => {
    const python = LANGUAGES.find((l) => l.id === 'python')!
    installServer('pylsp')
    expect((await chooseServer(python, lookup())).use?.server.command).toBe('pylsp')
    const pyright = installServer('pyright-langserver')
    expect((await chooseServer(python, lookup())).use).toMatchObject({path: pyright, server: {args: ['--stdio']}})
  })

  it('ignores a file on PATH that is not executable', async () => {
    writeFileSync(join(dirs.bin, 'gopls'), '', {mode: 0o644})
    expect(
      await chooseServer(
        LANGUAGES.find((l) => l.id === 'go')!,
        lookup(),
      ),
    ).toEqual({heldBack: [], use: undefined})
  })
})

describe('lspChecks', () => {
  it('lists the servers on PATH and passes a detected language that has one', async () => {
    touch('Cargo.toml')
    const path = installServer('rust-analyzer')
    installServer('clangd')
    const checks = await lspChecks(host())
    expect(checks.find((c) => c.id === 'lsp.servers')).toMatchObject({status: 'ok'})
    expect(checks.find((c) => c.id === 'lsp.servers')?.detail).toContain(`clangd (${join(dirs.bin, 'clangd')})`)
    expect(checks.find((c) => c.id === 'lsp.language.rust')).toMatchObject({
      detail: `rust-analyzer (${path})`,
      status: 'ok',
    })
  })

  it('warns with the install command when a detected language has no server', async () => {
    touch('package.json')
    const checks = await lspChecks(host())
    expect(checks.find((c) => c.id === 'lsp.language.typescript')).toMatchObject({
      hint: 'npm i -g typescript-language-server@5 typescript@5',
      status: 'warn',
    })
    expect(checks.find((c) => c.id === 'lsp.servers')).toMatchObject({detail: 'none found', status: 'skip'})
  })

  it("uses the project's node_modules/.bin only when the user's settings allow it, and says how", async () => {
    touch('tsconfig.json')
    mkdirSync(join(dirs.project, 'node_modules', '.bin'), {recursive: true})
    const own = join(dirs.project, 'node_modules', '.bin', 'typescript-language-server')
    writeFileSync(own, '#!/bin/sh\nexit 0\n', {mode: 0o755})
    const withheld = await lspChecks(host())
    expect(withheld.find((c) => c.id === 'lsp.language.typescript')).toMatchObject({
      detail: `project uses TypeScript / JavaScript; typescript-language-server (${own}) is held back as the project's own program: it is inside the project`,
      hint: 'to let it run: hanzo-dev config set lsp.project_servers true',
      status: 'warn',
    })
    const allowed = await lspChecks(host({lsp: {project_servers: true}}))
    expect(allowed.find((c) => c.id === 'lsp.language.typescript')).toMatchObject({
      detail: `typescript-language-server (${own}), the project's own: it is inside the project`,
      status: 'ok',
    })
  })

  it('says so when no project language is detected, without failing', async () => {
    const checks = await lspChecks(host())
    expect(checks.map((c) => c.status)).not.toContain('fail')
    expect(checks.find((c) => c.id === 'lsp.languages')).toMatchObject({status: 'skip'})
  })
})
