import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {format} from 'node:util'
import {afterEach, beforeEach, describe, expect, it, vi} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import LspServers from '../src/commands/lsp/servers.js'

// The command in-process against a stand-in for the running hanzo-dev: a package whose
// `loadHostContext` answers what host.json says (the settings rules themselves are the core's,
// tested there and end to end in test/e2e/plugin-commands.test.ts).
let box: Sandbox
let root: string

beforeEach(() => {
  box = makeSandbox('hanzo-lsp-cmd-')
  root = join(box.home, 'cli')
  mkdirSync(root)
  writeFileSync(join(root, 'package.json'), JSON.stringify({main: 'host.js', name: 'fake-hanzo-dev', type: 'module', version: '0.0.0'}))
  writeFileSync(
    join(root, 'host.js'),
    `import {readFileSync} from 'node:fs'
export async function loadHostContext({cwd, env}) {
  const answer = JSON.parse(readFileSync(new URL('host.json', import.meta.url), 'utf8'))
  if (answer.error) throw Object.assign(new Error(answer.error), {name: 'ConfigError'})
  const {projectRoot = cwd, settings = {}, warnings = []} = answer
  return {host: {configDir: '', cwd, dataDir: '', env: {...env, ...answer.env}, projectRoot, settings}, warnings}
}\n`,
  )
})
afterEach(() => box.cleanup())

const answer = (value: unknown) => writeFileSync(join(root, 'host.json'), JSON.stringify(value))

/** oclif prints through console.log / console.error; vitest would take those for itself. */
async function run(argv: string[]) {
  const stdout: string[] = []
  const stderr: string[] = []
  const log = vi.spyOn(console, 'log').mockImplementation((...a) => void stdout.push(format(...a)))
  const err = vi.spyOn(console, 'error').mockImplementation((...a) => void stderr.push(format(...a)))
  const output = () => ({stderr: stderr.join('\n'), stdout: stdout.join('\n')})
  try {
    const result = await LspServers.run(argv, root)
    return {...output(), error: undefined, result}
  } catch (error) {
    return {...output(), error: error as Error & {oclif?: {exit?: number}}, result: undefined}
  } finally {
    log.mockRestore()
    err.mockRestore()
  }
}

describe('lsp servers', () => {
  it('lists the known servers with their paths and the project languages left without one', async () => {
    const project = join(box.home, 'project')
    const bin = join(box.home, 'bin')
    mkdirSync(project)
    mkdirSync(bin)
    writeFileSync(join(project, 'pyproject.toml'), '')
    writeFileSync(join(project, 'go.mod'), 'module x\n')
    writeFileSync(join(bin, 'pylsp'), '#!/bin/sh\n', {mode: 0o755})
    answer({env: {PATH: bin}, projectRoot: project})

    const {result, stdout} = await run([])
    expect(result?.projectRoot).toBe(project)
    expect(result?.servers.filter((s) => s.path !== null)).toEqual([
      {command: 'pylsp', install: "pip install 'python-lsp-server[all]'", language: 'python', path: join(bin, 'pylsp')},
    ])
    expect(result?.servers.map((s) => s.command)).toEqual(
      expect.arrayContaining(['typescript-language-server', 'pyright-langserver', 'rust-analyzer', 'gopls', 'clangd']),
    )
    expect(result?.languages).toEqual([
      {id: 'python', name: 'Python', server: {command: 'pylsp', path: join(bin, 'pylsp')}},
      {id: 'go', install: 'go install golang.org/x/tools/gopls@latest', name: 'Go', server: null},
    ])
    expect(stdout).toMatch(new RegExp(`✓ pylsp +python +${join(bin, 'pylsp')}`))
    expect(stdout).toMatch(/- gopls +go +not on PATH/)
    expect(stdout).toContain('✓ Python: pylsp')
    expect(stdout).toContain('! Go: no server on PATH\n      → go install golang.org/x/tools/gopls@latest')
  })

  it('turns a settings error into one message and exit 1', async () => {
    answer({error: 'Invalid setting in /p/.hanzo/settings.json: model must be a string, found 1'})
    const {error, stdout} = await run([])
    expect(error?.message).toBe('Invalid setting in /p/.hanzo/settings.json: model must be a string, found 1')
    expect(error?.oclif?.exit).toBe(1)
    expect(stdout).toBe('')
  })
})
