import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {useFakeHost} from '../../../test/helpers/fake-host.js'
import LspServers from '../src/commands/lsp/servers.js'
import {slowServer} from './lsp-fixture.js'

const fake = useFakeHost('hanzo-lsp-cmd-')
const answer = fake.answer
const run = (argv: string[]) => fake.run(LspServers, argv)

describe('lsp servers', () => {
  it('lists the known servers with their paths, started to see they answer, and the project languages left without one', async () => {
    const project = join(fake.box.home, 'project')
    const bin = join(fake.box.home, 'bin')
    mkdirSync(project)
    writeFileSync(join(project, 'pyproject.toml'), '')
    writeFileSync(join(project, 'go.mod'), 'module x\n')
    writeFileSync(join(project, 'tsconfig.json'), '{}')
    slowServer(bin, 'pylsp', 0)
    // On PATH, but it cannot start: typescript-language-server with a TypeScript that has no tsserver.
    writeFileSync(
      join(bin, 'typescript-language-server'),
      '#!/bin/sh\necho "Could not find a valid TypeScript installation." >&2\nexit 1\n',
      {mode: 0o755},
    )
    answer({env: {PATH: bin}, projectRoot: project})

    const {result, stdout} = await run([])
    expect(result?.projectRoot).toBe(project)
    const broken = join(bin, 'typescript-language-server')
    const failure = `${broken} exited (code 1): Could not find a valid TypeScript installation.`
    expect(result?.servers.filter((s) => s.path !== null)).toEqual([
      {
        command: 'typescript-language-server',
        failure,
        heldBack: false,
        install: 'npm i -g typescript-language-server@5 typescript@5',
        language: 'typescript',
        path: broken,
        starts: false,
      },
      {
        command: 'pylsp',
        heldBack: false,
        install: "pip install 'python-lsp-server[all]'",
        language: 'python',
        path: join(bin, 'pylsp'),
        starts: true,
      },
    ])
    expect(result?.servers.map((s) => s.command)).toEqual(
      expect.arrayContaining(['typescript-language-server', 'pyright-langserver', 'rust-analyzer', 'gopls', 'clangd']),
    )
    expect(result?.languages).toEqual([
      {
        id: 'typescript',
        install: 'npm i -g typescript-language-server@5 typescript@5',
        name: 'TypeScript / JavaScript',
        problem: `typescript-language-server (${broken}) does not start: ${failure}`,
        server: null,
      },
      {id: 'python', name: 'Python', server: {command: 'pylsp', path: join(bin, 'pylsp')}},
      {
        id: 'go',
        install: 'go install golang.org/x/tools/gopls@latest',
        name: 'Go',
        problem: 'gopls not found on PATH or in node_modules/.bin',
        server: null,
      },
    ])
    expect(stdout).toMatch(new RegExp(`✓ pylsp +python +${join(bin, 'pylsp')}`))
    expect(stdout).toContain(
      `✗ typescript-language-server  typescript  ${broken}\n      does not start: ${failure}\n      → npm i -g typescript-language-server@5 typescript@5`,
    )
    expect(stdout).toMatch(/- gopls +go +not found/)
    expect(stdout).toContain('✓ Python: pylsp')
    expect(stdout).toContain(
      '! Go: gopls not found on PATH or in node_modules/.bin\n      → go install golang.org/x/tools/gopls@latest',
    )
  })

  it('turns a settings error into one message and exit 1', async () => {
    answer({error: 'Invalid setting in /p/.hanzo/settings.json: model must be a string, found 1'})
    const {error, stdout} = await run([])
    expect(error?.message).toBe('Invalid setting in /p/.hanzo/settings.json: model must be a string, found 1')
    expect(error?.oclif?.exit).toBe(1)
    expect(stdout).toBe('')
  })
})
