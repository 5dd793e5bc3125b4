import {mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {initAgentsMd} from '../../../src/adapters/agents-md.js'

describe('/init: the AGENTS.md skeleton', () => {
  let root: string
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hanzo-init-'))
  })
  afterEach(() => rmSync(root, {force: true, recursive: true}))

  it('writes the name, package manager, scripts, test command and layout from the repository', async () => {
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({name: 'widget', scripts: {build: 'tsc -b', lint: 'eslint .', test: 'vitest run'}}),
    )
    writeFileSync(join(root, 'pnpm-lock.yaml'), '')
    for (const dir of ['src', 'test', 'node_modules', 'dist', '.git']) mkdirSync(join(root, dir))
    const outcome = await initAgentsMd(root, {force: false})
    expect(outcome).toMatchObject({path: join(root, 'AGENTS.md'), written: true})
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toBe(
      [
        '# widget',
        '',
        'Instructions for coding agents working in this repository (hanzo-dev, Codex and others read this file).',
        '',
        '## Tooling',
        '',
        '- Package manager: pnpm',
        '- Tests: `pnpm test`',
        '',
        '## Scripts',
        '',
        '- `pnpm build`: `tsc -b`',
        '- `pnpm lint`: `eslint .`',
        '- `pnpm test`: `vitest run`',
        '',
        '## Layout',
        '',
        '- `src/`: TODO what lives here',
        '- `test/`: TODO what lives here',
        '',
        '## Conventions',
        '',
        '- TODO: code style, naming, what to check before a commit.',
        '',
      ].join('\n'),
    )
  })

  it('refuses to replace an existing AGENTS.md without --force, and replaces it with', async () => {
    writeFileSync(join(root, 'AGENTS.md'), 'mine\n')
    writeFileSync(join(root, 'go.mod'), 'module example.com/x\n')
    expect(await initAgentsMd(root, {force: false})).toEqual({
      path: join(root, 'AGENTS.md'),
      reason: 'AGENTS.md exists already (/init --force replaces it)',
      written: false,
    })
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toBe('mine\n')
    await initAgentsMd(root, {force: true})
    const text = readFileSync(join(root, 'AGENTS.md'), 'utf8')
    expect(text).toContain('- Package manager: go\n- Tests: `go test ./...`')
    expect(text).not.toContain('## Scripts')
  })
})
