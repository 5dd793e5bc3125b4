import {mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {importedPaths} from '../../../src/adapters/instruction-imports.js'
import {
  MAX_IMPORT_DEPTH,
  MAX_INSTRUCTION_BYTES,
  readProjectInstructions,
} from '../../../src/adapters/project-instructions.js'

describe('project instructions: AGENTS.md from the root down to cwd, with @imports', () => {
  let base: string
  let root: string
  const warnings: string[] = []
  const warn = (message: string) => warnings.push(message)
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), {recursive: true})
    writeFileSync(join(root, path), text)
  }

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'hanzo-instr-')))
    root = join(base, 'repo')
    mkdirSync(root)
    warnings.length = 0
  })
  afterEach(() => rmSync(base, {force: true, recursive: true}))

  it('reads every directory from the root down to cwd, the nearest last, with the fallback per directory', async () => {
    write('AGENTS.md', 'root')
    write('HANZO.md', 'root hanzo')
    write('packages/AGENTS.md', 'packages')
    write('packages/api/CLAUDE.md', 'api claude')
    write('packages/api/GEMINI.md', 'api gemini')
    write('other/AGENTS.md', 'not on the way')
    mkdirSync(join(root, 'packages/api/src'))
    const files = await readProjectInstructions(root, join(root, 'packages/api/src'), warn)
    expect(files).toEqual([
      {name: 'AGENTS.md', text: 'root'},
      {name: 'HANZO.md', text: 'root hanzo'},
      {name: 'packages/AGENTS.md', text: 'packages'},
      {name: 'packages/api/CLAUDE.md', text: 'api claude'},
    ])
    expect(warnings).toEqual([])
  })

  it('follows @imports relative to the importing file, nested, each read once', async () => {
    write('AGENTS.md', 'See @docs/style.md and @docs/style.md. Mail me at a@b.co, ping @team.')
    write('docs/style.md', 'Style: tabs. More in @./deeper/naming.md')
    write('docs/deeper/naming.md', 'Names: camelCase.')
    const files = await readProjectInstructions(root, root, warn)
    expect(files.map((f) => f.name)).toEqual([
      'AGENTS.md',
      'docs/style.md, imported by AGENTS.md',
      'docs/deeper/naming.md, imported by docs/style.md',
    ])
    expect(files[2].text).toBe('Names: camelCase.')
    expect(warnings).toEqual([])
  })

  it('refuses a cycle with a warning and reads each file once', async () => {
    write('AGENTS.md', '@a.md')
    write('a.md', 'A imports @b.md')
    write('b.md', 'B imports @a.md')
    const files = await readProjectInstructions(root, root, warn)
    expect(files.map((f) => f.name)).toEqual(['AGENTS.md', 'a.md, imported by AGENTS.md', 'b.md, imported by a.md'])
    expect(warnings).toEqual(['b.md imports @a.md: refused, it imports itself through a cycle'])
  })

  it('refuses an import outside the project, by path or through a symlink', async () => {
    writeFileSync(join(base, 'secret.md'), 'outside')
    symlinkSync(join(base, 'secret.md'), join(root, 'link.md'))
    write('AGENTS.md', 'Read @../secret.md and @link.md')
    const files = await readProjectInstructions(root, root, warn)
    expect(files.map((f) => f.text)).toEqual(['Read @../secret.md and @link.md'])
    expect(warnings).toEqual([
      `AGENTS.md imports @../secret.md: refused, it is outside the project (${root})`,
      `AGENTS.md imports @link.md: refused, it is outside the project (${root})`,
    ])
  })

  it(`refuses imports nested deeper than ${MAX_IMPORT_DEPTH}`, async () => {
    write('AGENTS.md', '@d1.md')
    for (let depth = 1; depth <= MAX_IMPORT_DEPTH + 1; depth++) write(`d${depth}.md`, `@d${depth + 1}.md`)
    const files = await readProjectInstructions(root, root, warn)
    expect(files).toHaveLength(1 + MAX_IMPORT_DEPTH)
    expect(warnings).toEqual([
      `d${MAX_IMPORT_DEPTH}.md imports @d${MAX_IMPORT_DEPTH + 1}.md: refused, imports nest at most ${MAX_IMPORT_DEPTH} deep`,
    ])
  })

  it('cuts the instructions at the cap, all files together', async () => {
    write('AGENTS.md', `${'a'.repeat(MAX_INSTRUCTION_BYTES - 10)} @big.md`)
    write('big.md', 'b'.repeat(100))
    write('sub/AGENTS.md', 'never read')
    const files = await readProjectInstructions(root, join(root, 'sub'), warn)
    expect(files.map((f) => f.name)).toEqual(['AGENTS.md', 'big.md, imported by AGENTS.md'])
    expect(files[1].text).toBe(`${'b'.repeat(2)}\n[... cut: instructions are limited to 64 KB in all ...]`)
  })
})

describe('importedPaths', () => {
  it('takes @paths outside code, without trailing punctuation, and leaves mentions and e-mail addresses', () => {
    const text = [
      'Follow @docs/a.md, then @./b.md.',
      'Not `@in/code.md` nor user@example.com nor @someone',
      '```',
      '@fenced/c.md',
      '```',
      '(@../d.md)',
    ].join('\n')
    expect(importedPaths(text)).toEqual(['docs/a.md', './b.md'])
  })
})
