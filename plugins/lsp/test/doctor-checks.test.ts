import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {lspChecks} from '../src/doctor-checks.js'
import {detectLanguages, LANGUAGES} from '../src/languages.js'
import {findServer} from '../src/server-lookup.js'

let sandbox: Sandbox
let project: string
let bin: string

beforeEach(() => {
  sandbox = makeSandbox('hanzo-lsp-')
  project = join(sandbox.home, 'project')
  bin = join(sandbox.home, 'bin')
  mkdirSync(project)
  mkdirSync(bin)
})
afterEach(() => sandbox.cleanup())

function installServer(name: string): string {
  const path = join(bin, name)
  writeFileSync(path, '#!/bin/sh\nexit 0\n', {mode: 0o755})
  return path
}

function touch(name: string): void {
  writeFileSync(join(project, name), '')
}

const host = () => ({cwd: project, env: {PATH: bin}, projectRoot: project})

describe('detectLanguages', () => {
  it('reads marker files in the project root', async () => {
    touch('tsconfig.json')
    touch('go.mod')
    expect((await detectLanguages(project)).map((l) => l.id)).toEqual(['typescript', 'go'])
  })

  it('finds nothing in an empty directory', async () => {
    expect(await detectLanguages(project)).toEqual([])
  })
})

describe('findServer', () => {
  it('prefers the first server of a language that is on PATH', async () => {
    const python = LANGUAGES.find((l) => l.id === 'python')!
    installServer('pylsp')
    expect((await findServer(python, {cwd: project, env: {PATH: bin}}))?.server.command).toBe('pylsp')
    const pyright = installServer('pyright-langserver')
    expect(await findServer(python, {cwd: project, env: {PATH: bin}})).toMatchObject({path: pyright, server: {args: ['--stdio']}})
  })

  it('ignores a file on PATH that is not executable', async () => {
    writeFileSync(join(bin, 'gopls'), '', {mode: 0o644})
    expect(await findServer(LANGUAGES.find((l) => l.id === 'go')!, {cwd: project, env: {PATH: bin}})).toBeUndefined()
  })
})

describe('lspChecks', () => {
  it('lists the servers on PATH and passes a detected language that has one', async () => {
    touch('Cargo.toml')
    const path = installServer('rust-analyzer')
    installServer('clangd')
    const checks = await lspChecks(host())
    expect(checks.find((c) => c.id === 'lsp.servers')).toMatchObject({status: 'ok'})
    expect(checks.find((c) => c.id === 'lsp.servers')?.detail).toContain(`clangd (${join(bin, 'clangd')})`)
    expect(checks.find((c) => c.id === 'lsp.language.rust')).toMatchObject({detail: `rust-analyzer (${path})`, status: 'ok'})
  })

  it('warns with the install command when a detected language has no server', async () => {
    touch('package.json')
    const checks = await lspChecks(host())
    expect(checks.find((c) => c.id === 'lsp.language.typescript')).toMatchObject({
      hint: 'npm i -g typescript-language-server typescript',
      status: 'warn',
    })
    expect(checks.find((c) => c.id === 'lsp.servers')).toMatchObject({detail: 'none found', status: 'skip'})
  })

  it('says so when no project language is detected, without failing', async () => {
    const checks = await lspChecks(host())
    expect(checks.map((c) => c.status)).not.toContain('fail')
    expect(checks.find((c) => c.id === 'lsp.languages')).toMatchObject({status: 'skip'})
  })
})
