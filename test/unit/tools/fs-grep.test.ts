import {linkSync, symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {
  fsGrep,
  fsGrepTool,
  GREP_MAX_FILE_BYTES,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_LINES,
} from '../../../src/adapters/tools/fs-grep.js'
import {ripgrep} from '../../../src/adapters/tools/ripgrep.js'
import {rejectionOf} from '../../helpers/thrown.js'
import {
  IGNORE_TREE,
  IGNORE_TREE_VISIBLE,
  NAMES_TREE,
  run,
  SEARCH_ENGINES,
  usePath,
  useTempWorkspace,
  writeTree,
} from './tool-harness.js'

it('fs_grep gives a pattern 10 s to match unless told otherwise, and tells the model its limit', () => {
  expect(fsGrep.description).toContain('A pattern that takes more than 10 s to match')
  expect(fsGrepTool({regexLimitMs: 1000}).description).toContain('A pattern that takes more than 1 s to match')
})

describe.each(SEARCH_ENGINES)('fs_grep %s', (name, path) => {
  const dirs = useTempWorkspace()
  usePath(path)

  it('searches with the engine it says', () => {
    expect(ripgrep() !== undefined).toBe(name === 'with ripgrep')
  })
  const source = {
    'src/a.ts': 'import x\nconst load = 1\nLOAD()\n',
    'src/b.ts': 'nothing here\n',
    'docs/c.md': 'load the docs\r\n',
  }

  it('prints path:line:text of each matching line, in path order', async () => {
    writeTree(dirs.workspace, source)
    expect((await run(fsGrep, {pattern: 'load'}, dirs.workspace)).output).toBe(
      'docs/c.md:1:load the docs\nsrc/a.ts:2:const load = 1',
    )
    expect((await run(fsGrep, {case_insensitive: true, pattern: 'load\\b'}, dirs.workspace)).output).toBe(
      'docs/c.md:1:load the docs\nsrc/a.ts:2:const load = 1\nsrc/a.ts:3:LOAD()',
    )
  })

  it('lists matching files, or counts per file', async () => {
    writeTree(dirs.workspace, source)
    expect(
      (await run(fsGrep, {output_mode: 'files_with_matches', pattern: 'load', case_insensitive: true}, dirs.workspace))
        .output,
    ).toBe('docs/c.md\nsrc/a.ts')
    expect(
      (await run(fsGrep, {case_insensitive: true, output_mode: 'count', pattern: 'load'}, dirs.workspace)).output,
    ).toBe('docs/c.md:1\nsrc/a.ts:2\n[3 matching lines in 2 files]')
  })

  it('narrows by path (a directory or one file) and by glob', async () => {
    writeTree(dirs.workspace, source)
    expect((await run(fsGrep, {path: 'src', pattern: 'load'}, dirs.workspace)).output).toBe('src/a.ts:2:const load = 1')
    expect((await run(fsGrep, {path: 'docs/c.md', pattern: 'load'}, dirs.workspace)).output).toBe(
      'docs/c.md:1:load the docs',
    )
    expect((await run(fsGrep, {glob: '*.ts', pattern: 'load'}, dirs.workspace)).output).toBe(
      'src/a.ts:2:const load = 1',
    )
    expect((await run(fsGrep, {glob: 'docs/*.md', pattern: 'load'}, dirs.workspace)).output).toBe(
      'docs/c.md:1:load the docs',
    )
  })

  it('narrows by a glob of names without letting the glob bring back what .gitignore leaves out', async () => {
    writeTree(dirs.workspace, NAMES_TREE)
    const listed = async (glob: string) =>
      (await run(fsGrep, {glob, output_mode: 'files_with_matches', pattern: 'needle'}, dirs.workspace)).output
    expect(await listed('*.json')).toBe('a.json\nx/b.json')
    expect(await listed('*.{ts,tsx}')).toBe('x/d.ts\nx/e.tsx')
    expect(await listed('{x,out}/*.json')).toBe('x/b.json')
    expect(await listed('x/[bc].json*')).toBe('x/b.json\nx/c.jsonc')
    expect((await run(fsGrep, {glob: '*.json', output_mode: 'count', pattern: 'needle'}, dirs.workspace)).output).toBe(
      'a.json:1\nx/b.json:2\n[3 matching lines in 2 files]',
    )
  })

  it('respects .gitignore files (root and nested)', async () => {
    writeTree(dirs.workspace, IGNORE_TREE)
    const expected = IGNORE_TREE_VISIBLE.filter((path) => !path.endsWith('.gitignore'))
    expect((await run(fsGrep, {output_mode: 'files_with_matches', pattern: 'needle'}, dirs.workspace)).output).toBe(
      expected.join('\n'),
    )
  })

  it('skips binary files (a NUL in the first 8 KB) and files over the size cap; refuses them by name', async () => {
    writeTree(dirs.workspace, {
      'image.bin': Buffer.from('needle\0\x01\x02'),
      'late-nul.txt': `needle\n${'x'.repeat(9000)}\0\n`,
      'huge.txt': `needle\n${'x'.repeat(GREP_MAX_FILE_BYTES)}`,
      'exact.txt': `needle\n${'x'.repeat(GREP_MAX_FILE_BYTES - 7)}`,
      'kept.txt': 'needle\n',
      '.hidden/h.txt': 'needle\n',
      'bom.txt': '\uFEFFneedle\r\nneedle\r\n',
    })
    expect((await run(fsGrep, {pattern: '^needle$'}, dirs.workspace)).output).toBe(
      '.hidden/h.txt:1:needle\nbom.txt:2:needle\nexact.txt:1:needle\nkept.txt:1:needle\nlate-nul.txt:1:needle',
    )
    expect((await run(fsGrep, {path: 'image.bin', pattern: 'needle'}, dirs.workspace)).error).toMatch(
      /image\.bin is a binary file/,
    )
    expect((await run(fsGrep, {path: 'huge.txt', pattern: 'needle'}, dirs.workspace)).error).toMatch(
      /huge\.txt is over 1 MB/,
    )
  })

  it('hands ripgrep only patterns it reads the same, and matches the others itself', async () => {
    writeTree(dirs.workspace, {'a.txt': 'foo1 foo2\nfoo١\nabab\nx&&y\na.b\ta\u00a0b\néclair Éclair\n'})
    const grep = async (pattern: string, case_insensitive = false) =>
      (await run(fsGrep, {case_insensitive, pattern}, dirs.workspace)).output
    expect(await grep('foo\\d')).toBe('a.txt:1:foo1 foo2')
    expect(await grep('(ab)\\1')).toBe('a.txt:3:abab')
    expect(await grep('foo(?!\\d)')).toBe('a.txt:2:foo١')
    expect(await grep('[&&]{2}')).toBe('a.txt:4:x&&y')
    expect(await grep('a\\sb')).toBe('a.txt:5:a.b\ta\u00a0b')
    expect(await grep('\\bb\\b')).toBe('a.txt:5:a.b\ta\u00a0b')
    expect(await grep('^éclair éclair$', true)).toBe('a.txt:6:éclair Éclair')
    expect(await grep('\\/|\\p{Nd}')).toMatch(/^a\.txt:1:/)
  })

  it(`prints at most ${GREP_MAX_LINES} lines and counts the rest; cuts long lines around the match`, async () => {
    writeTree(dirs.workspace, {
      'many.txt': Array.from({length: GREP_MAX_LINES + 20}, (_, i) => `hit ${i}`).join('\n'),
      'min.js': `${'a'.repeat(5000)}NEEDLE${'b'.repeat(5000)}`,
    })
    const many = (await run(fsGrep, {pattern: 'hit'}, dirs.workspace)).output.split('\n')
    expect(many).toHaveLength(GREP_MAX_LINES + 1)
    expect(many.at(-1)).toMatch(/^\[… and 20 more matching lines/)
    const min = (await run(fsGrep, {pattern: 'NEEDLE'}, dirs.workspace)).output
    expect(min).toMatch(/^min\.js:1:\[… \d+ characters\] a+NEEDLEb+ \[… \d+ more characters\]$/)
    expect(min.length).toBeLessThan(GREP_MAX_LINE_CHARS + 100)
  })

  it('reports no matches as a result, and an invalid regex as an error naming the problem', async () => {
    writeTree(dirs.workspace, source)
    expect(await run(fsGrep, {pattern: 'absent'}, dirs.workspace)).toMatchObject({
      is_error: false,
      output: 'No matches for /absent/ in ..',
    })
    const invalid = await run(fsGrep, {pattern: 'load(('}, dirs.workspace)
    expect(invalid.is_error).toBe(true)
    expect(invalid.error).toMatch(/not a valid JavaScript regular expression: .*Unterminated group/)
  })

  it('accepts Unicode property escapes and legacy escapes alike', async () => {
    writeTree(dirs.workspace, {'a.txt': 'Ünïcode\nx-y\n'})
    expect((await run(fsGrep, {pattern: '^\\p{Lu}'}, dirs.workspace)).output).toBe('a.txt:1:Ünïcode')
    expect((await run(fsGrep, {pattern: 'x\\-y'}, dirs.workspace)).output).toBe('a.txt:2:x-y')
  })

  it('does not read outside the workspace', async () => {
    writeTree(dirs.outside, {'secret.txt': 'needle\n'})
    symlinkSync(dirs.outside, join(dirs.workspace, 'out'))
    symlinkSync(join(dirs.outside, 'secret.txt'), join(dirs.workspace, 'secret-link'))
    writeTree(dirs.workspace, {'in.txt': 'needle\n'})
    symlinkSync('in.txt', join(dirs.workspace, 'inside-link'))
    // Symbolic links are not followed in a tree, even to a file inside; named, one is searched.
    expect((await run(fsGrep, {pattern: 'needle'}, dirs.workspace)).output).toBe('in.txt:1:needle')
    expect((await run(fsGrep, {path: 'inside-link', pattern: 'needle'}, dirs.workspace)).output).toBe('in.txt:1:needle')
    expect((await run(fsGrep, {path: 'secret-link', pattern: 'needle'}, dirs.workspace)).error).toMatch(
      /outside the workspace/,
    )
    expect((await run(fsGrep, {path: '../outside', pattern: 'needle'}, dirs.workspace)).error).toMatch(
      /outside the workspace/,
    )
  })

  it('stops a pattern that backtracks catastrophically once its time to match is up, with an error result; the next search works', async () => {
    writeTree(dirs.workspace, {'a.txt': 'short line\n', 'long.txt': `${'a'.repeat(50_000)}\n`, 'z.txt': 'aab\n'})
    // The worker really runs out of time, so the limit is short, not faked; 1 s leaves room for the thread to start on a busy machine.
    const grep = fsGrepTool({regexLimitMs: 1000})
    // A lookahead keeps it from ripgrep (which would match it in linear time).
    const result = await run(grep, {pattern: '(?=a)(a+)+b'}, dirs.workspace)
    expect(result.is_error).toBe(true)
    expect(result.error).toBe(
      '/(?=a)(a+)+b/ used up its 1 s of matching (it was on long.txt), so the search was stopped: nested quantifiers such as (a+)+ take exponential time on long lines. Simplify the pattern, or narrow path or glob.',
    )
    expect((await run(grep, {glob: 'z.txt', pattern: '(a+)+b'}, dirs.workspace)).output).toBe('z.txt:1:aab')
  })

  it('ends at once when the call is cancelled while the pattern is still matching', async () => {
    writeTree(dirs.workspace, {'long.txt': `${'a'.repeat(50_000)}\n`})
    const controller = new AbortController()
    const call = run(fsGrep, {pattern: '(?=a)(a+)+b'}, dirs.workspace, controller.signal)
    setTimeout(() => controller.abort(), 100)
    expect((await rejectionOf(call)).name).toBe('AbortError')
    expect((await run(fsGrep, {pattern: 'a{3}'}, dirs.workspace)).output).toMatch(/^long\.txt:1:/)
  })

  it('skips a file with another hard link in a tree, and refuses it by name', async () => {
    writeTree(dirs.outside, {'secret.txt': 'needle TOP SECRET\n'})
    writeTree(dirs.workspace, {'a.txt': 'needle\n'})
    linkSync(join(dirs.outside, 'secret.txt'), join(dirs.workspace, 'hardlink.txt'))
    expect((await run(fsGrep, {pattern: 'needle'}, dirs.workspace)).output).toBe('a.txt:1:needle')
    expect(await run(fsGrep, {path: 'hardlink.txt', pattern: 'needle'}, dirs.workspace)).toMatchObject({
      error: expect.stringMatching(/^hardlink\.txt has 2 hard links/),
      is_error: true,
      output: '',
    })
  })
})
