import {symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {fsGlob, GLOB_MAX_RESULTS} from '../../../src/adapters/tools/fs-glob.js'
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

describe.each(SEARCH_ENGINES)('fs_glob %s', (_name, path) => {
  const dirs = useTempWorkspace()
  usePath(path)

  it('finds files by glob, sorted, relative to the workspace root', async () => {
    writeTree(dirs.workspace, {
      'README.md': '',
      'src/b.ts': '',
      'src/a.ts': '',
      'src/ui/c.tsx': '',
      'test/a.test.ts': '',
      '.github/ci.ts': '',
    })
    expect((await run(fsGlob, {pattern: '**/*.ts'}, dirs.workspace)).output).toBe(
      '.github/ci.ts\nsrc/a.ts\nsrc/b.ts\ntest/a.test.ts',
    )
    expect((await run(fsGlob, {pattern: 'src/**/*.{ts,tsx}'}, dirs.workspace)).output).toBe(
      'src/a.ts\nsrc/b.ts\nsrc/ui/c.tsx',
    )
    expect((await run(fsGlob, {pattern: '*.md'}, dirs.workspace)).output).toBe('README.md')
  })

  it('matches relative to path when one is given', async () => {
    writeTree(dirs.workspace, {'src/a.ts': '', 'src/ui/c.ts': '', 'a.ts': ''})
    expect((await run(fsGlob, {path: 'src', pattern: '*.ts'}, dirs.workspace)).output).toBe('src/a.ts')
    expect((await run(fsGlob, {path: 'src', pattern: 'ui/*.ts'}, dirs.workspace)).output).toBe('src/ui/c.ts')
  })

  it('respects .gitignore files (root and nested) and skips .git', async () => {
    writeTree(dirs.workspace, IGNORE_TREE)
    expect((await run(fsGlob, {pattern: '**/*'}, dirs.workspace)).output).toBe(IGNORE_TREE_VISIBLE.join('\n'))
    // Named literally, an ignored directory is searched (the model asked for it).
    expect((await run(fsGlob, {pattern: 'build/*.js'}, dirs.workspace)).output).toBe('build/out.js')
    expect((await run(fsGlob, {path: 'pkg/generated', pattern: '*'}, dirs.workspace)).output).toBe('pkg/generated/x.ts')
  })

  it('narrows by file names without letting the pattern bring back what .gitignore leaves out', async () => {
    writeTree(dirs.workspace, NAMES_TREE)
    const listed = async (pattern: string) => (await run(fsGlob, {pattern}, dirs.workspace)).output
    expect(await listed('**/*.json')).toBe('a.json\nx/b.json')
    expect(await listed('**/*.{ts,tsx}')).toBe('x/d.ts\nx/e.tsx')
    expect(await listed('{x,out}/*.json')).toBe('x/b.json')
    expect(await listed('x/[bc].json*')).toBe('x/b.json\nx/c.jsonc')
    expect(await listed('*.json')).toBe('a.json')
    expect(await listed('x/**')).toBe('x/b.json\nx/c.jsonc\nx/d.ts\nx/e.tsx')
  })

  it('says when nothing matches, also when the literal part of the pattern does not exist', async () => {
    writeTree(dirs.workspace, {'a.ts': ''})
    expect(await run(fsGlob, {pattern: '**/*.py'}, dirs.workspace)).toMatchObject({
      is_error: false,
      output: 'No files match **/*.py in ..',
    })
    expect((await run(fsGlob, {pattern: 'nowhere/**/*.ts'}, dirs.workspace)).output).toMatch(/^No files match/)
  })

  it('does not reach outside: .. in the pattern, a path outside, a symlinked directory', async () => {
    writeTree(dirs.outside, {'secret.ts': ''})
    symlinkSync(dirs.outside, join(dirs.workspace, 'out'))
    expect((await run(fsGlob, {pattern: '../outside/*.ts'}, dirs.workspace)).error).toMatch(/no `\.\.`/)
    expect((await run(fsGlob, {pattern: '/etc/*'}, dirs.workspace)).error).toMatch(/no leading `\/`/)
    expect((await run(fsGlob, {path: '../outside', pattern: '*.ts'}, dirs.workspace)).error).toMatch(
      /outside the workspace/,
    )
    expect((await run(fsGlob, {pattern: 'out/*.ts'}, dirs.workspace)).error).toMatch(/outside the workspace/)
    expect((await run(fsGlob, {pattern: '**/*.ts'}, dirs.workspace)).output).toMatch(/^No files match/)
  })

  it(`lists at most ${GLOB_MAX_RESULTS} paths and counts the rest`, async () => {
    writeTree(
      dirs.workspace,
      Object.fromEntries(
        Array.from({length: GLOB_MAX_RESULTS + 7}, (_, i) => [`d/f${String(i).padStart(4, '0')}.txt`, '']),
      ),
    )
    const lines = (await run(fsGlob, {pattern: '**/*.txt'}, dirs.workspace)).output.split('\n')
    expect(lines).toHaveLength(GLOB_MAX_RESULTS + 1)
    expect(lines[0]).toBe('d/f0000.txt')
    expect(lines.at(-1)).toMatch(/^… and 7 more files/)
  })

  it('refuses a path that is a file', async () => {
    writeTree(dirs.workspace, {'a.ts': ''})
    expect((await run(fsGlob, {path: 'a.ts', pattern: '*'}, dirs.workspace)).error).toMatch(
      /a\.ts is a file, not a directory/,
    )
  })
})
