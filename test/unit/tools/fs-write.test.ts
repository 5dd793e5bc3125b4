import {mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {fsWrite} from '../../../src/adapters/tools/fs-write.js'
import {run, useTempWorkspace} from './tool-harness.js'

describe('fs_write', () => {
  const dirs = useTempWorkspace()

  it('creates a file and its parent directories, and says so', async () => {
    const result = await run(fsWrite, {content: 'héllo\n', path: 'a/b/c.txt'}, dirs.workspace)
    expect(result).toEqual({
      details: {files: [{after: 'héllo\n', before: null, path: 'a/b/c.txt'}], kind: 'edit'},
      error: null,
      is_error: false,
      output: 'Created a/b/c.txt (7 bytes).',
    })
    expect(readFileSync(join(dirs.workspace, 'a', 'b', 'c.txt'), 'utf8')).toBe('héllo\n')
  })

  it('replaces a file atomically, keeping its mode, leaving no temp file', async () => {
    const file = join(dirs.workspace, 'run.sh')
    writeFileSync(file, 'old content', {mode: 0o755})
    const result = await run(fsWrite, {content: 'new', path: 'run.sh'}, dirs.workspace)
    expect(result.output).toBe('Replaced run.sh (3 bytes; it had 11 bytes).')
    expect(readFileSync(file, 'utf8')).toBe('new')
    expect(statSync(file).mode & 0o777).toBe(0o755)
    expect(readdirSync(dirs.workspace)).toEqual(['run.sh'])
  })

  it('writes through a symlink that stays inside to its target', async () => {
    writeFileSync(join(dirs.workspace, 'real.txt'), 'old')
    symlinkSync('real.txt', join(dirs.workspace, 'alias.txt'))
    expect((await run(fsWrite, {content: 'new', path: 'alias.txt'}, dirs.workspace)).output).toBe(
      'Replaced real.txt (3 bytes; it had 3 bytes).',
    )
    expect(readFileSync(join(dirs.workspace, 'real.txt'), 'utf8')).toBe('new')
  })

  it('refuses a directory, and a parent that is a file', async () => {
    mkdirSync(join(dirs.workspace, 'src'))
    writeFileSync(join(dirs.workspace, 'file'), '')
    expect((await run(fsWrite, {content: 'x', path: 'src'}, dirs.workspace)).error).toMatch(/src is a directory/)
    expect((await run(fsWrite, {content: 'x', path: 'file/x.txt'}, dirs.workspace)).error).toMatch(
      /file\/x\.txt: .*not a directory/,
    )
  })

  it('refuses to write outside the workspace, through .., a symlinked directory or a dangling link', async () => {
    symlinkSync(dirs.outside, join(dirs.workspace, 'out'))
    symlinkSync(join(dirs.outside, 'planted.txt'), join(dirs.workspace, 'dangling'))
    for (const path of ['../outside/x.txt', 'out/x.txt', 'out/deep/x.txt', 'dangling', join(dirs.outside, 'x.txt')]) {
      const result = await run(fsWrite, {content: 'pwned', path}, dirs.workspace)
      expect(result.error, path).toMatch(/outside the workspace/)
    }

    expect(readdirSync(dirs.outside)).toEqual([])
  })
})
