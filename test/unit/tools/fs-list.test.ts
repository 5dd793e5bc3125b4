import {mkdirSync, symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {fsList, LIST_MAX_ENTRIES} from '../../../src/adapters/tools/fs-list.js'
import {run, useTempWorkspace, writeTree} from './tool-harness.js'

describe('fs_list', () => {
  const dirs = useTempWorkspace()

  it('lists one directory sorted, marking directories and symlinks, without .git', async () => {
    writeTree(dirs.workspace, {'.git/HEAD': '', '.gitignore': '', 'b.txt': '', 'src/deep/x.ts': '', 'a.txt': ''})
    symlinkSync('a.txt', join(dirs.workspace, 'link'))
    expect((await run(fsList, {}, dirs.workspace)).output).toBe('.gitignore\na.txt\nb.txt\nlink@\nsrc/')
    expect((await run(fsList, {path: 'src'}, dirs.workspace)).output).toBe('deep/')
  })

  it(`shows the first ${LIST_MAX_ENTRIES} entries in order and counts the rest`, async () => {
    const files = Object.fromEntries(
      Array.from({length: LIST_MAX_ENTRIES + 1500}, (_, i) => [`f${String(i).padStart(5, '0')}`, '']),
    )
    writeTree(dirs.workspace, files)
    const output = (await run(fsList, {}, dirs.workspace)).output.split('\n')
    expect(output).toHaveLength(LIST_MAX_ENTRIES + 1)
    expect(output[0]).toBe('f00000')
    expect(output[LIST_MAX_ENTRIES - 1]).toBe(`f${String(LIST_MAX_ENTRIES - 1).padStart(5, '0')}`)
    expect(output[LIST_MAX_ENTRIES]).toMatch(/^… and 1500 more entries/)
  })

  it('says when a directory is empty; refuses a file, a missing path and the outside', async () => {
    mkdirSync(join(dirs.workspace, 'empty'))
    writeTree(dirs.workspace, {'a.txt': ''})
    symlinkSync(dirs.outside, join(dirs.workspace, 'out'))
    expect((await run(fsList, {path: 'empty'}, dirs.workspace)).output).toBe('empty is empty.')
    expect((await run(fsList, {path: 'a.txt'}, dirs.workspace)).error).toMatch(
      /a\.txt is a file, not a directory; use fs_read/,
    )
    expect((await run(fsList, {path: 'nope'}, dirs.workspace)).error).toBe('nope: no such file or directory')
    expect((await run(fsList, {path: 'out'}, dirs.workspace)).error).toMatch(/outside the workspace/)
    expect((await run(fsList, {path: '..'}, dirs.workspace)).error).toMatch(/outside the workspace/)
  })
})
