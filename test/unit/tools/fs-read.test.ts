import {execFileSync} from 'node:child_process'
import {linkSync, mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {fsRead, READ_MAX_BYTES, READ_MAX_LINE_BYTES, READ_MAX_LINES} from '../../../src/adapters/tools/fs-read.js'
import {run, useTempWorkspace, writeTree} from './tool-harness.js'

const lines = (count: number, make = (n: number) => `line ${n}`) =>
  Array.from({length: count}, (_, i) => make(i + 1)).join('\n') + '\n'

describe('fs_read', () => {
  const dirs = useTempWorkspace()

  it('returns the lines numbered like cat -n, without their line endings', async () => {
    writeTree(dirs.workspace, {'src/a.txt': 'alpha\r\nbeta\n\ngamma'})
    const result = await run(fsRead, {path: 'src/a.txt'}, dirs.workspace)
    expect(result).toEqual({
      details: {kind: 'read', lines: 4},
      error: null,
      is_error: false,
      output: '     1\talpha\n     2\tbeta\n     3\t\n     4\tgamma',
    })
  })

  it('reads a range with offset and limit, and says where to go on', async () => {
    writeTree(dirs.workspace, {'a.txt': lines(10)})
    const result = await run(fsRead, {limit: 3, offset: 4, path: 'a.txt'}, dirs.workspace)
    expect(result.output).toMatch(
      /^ {5}4\tline 4\n {5}5\tline 5\n {5}6\tline 6\n\n\[Showed lines 4-6 of a\.txt .*offset=7/,
    )
    const end = await run(fsRead, {limit: 3, offset: 8, path: 'a.txt'}, dirs.workspace)
    expect(end.output).toBe('     8\tline 8\n     9\tline 9\n    10\tline 10')
  })

  it(`stops at ${READ_MAX_LINES} lines and tells the offset of the rest`, async () => {
    writeTree(dirs.workspace, {'big.txt': lines(READ_MAX_LINES + 500)})
    const result = await run(fsRead, {path: 'big.txt'}, dirs.workspace)
    expect(result.output.split('\n').filter((l) => /^\s+\d+\t/.test(l))).toHaveLength(READ_MAX_LINES)
    expect(result.output).toContain(`offset=${READ_MAX_LINES + 1}`)
    expect((await run(fsRead, {limit: 5000, path: 'big.txt'}, dirs.workspace)).output).toContain(
      `offset=${READ_MAX_LINES + 1}`,
    )
  })

  it('stops at the byte cap on files of long lines, and cuts a line that is too long', async () => {
    const long = 'x'.repeat(READ_MAX_LINE_BYTES - 10)
    writeTree(dirs.workspace, {
      'wide.txt': lines(1000, () => long),
      'one.txt': `${'é'.repeat(READ_MAX_LINE_BYTES)}\nnext\n`,
    })
    const wide = await run(fsRead, {path: 'wide.txt'}, dirs.workspace)
    const shown = wide.output.split('\n').filter((l) => /^\s+\d+\t/.test(l)).length
    expect(shown).toBeLessThan(1000)
    expect(shown * long.length).toBeLessThanOrEqual(READ_MAX_BYTES)
    expect(wide.output).toContain(`offset=${shown + 1}`)

    const one = await run(fsRead, {path: 'one.txt'}, dirs.workspace)
    expect(one.output).toMatch(/^ {5}1\té+ \[… \d+ more bytes on this line\]\n {5}2\tnext$/)
    expect(one.output).not.toContain('\uFFFD')
  })

  it('refuses a directory (pointing to fs_list), a binary file, and an offset past the end', async () => {
    mkdirSync(join(dirs.workspace, 'src'))
    writeTree(dirs.workspace, {'image.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]), 'short.txt': 'a\nb'})
    expect(await run(fsRead, {path: 'src'}, dirs.workspace)).toMatchObject({
      error: expect.stringContaining('use fs_list'),
      is_error: true,
    })
    expect((await run(fsRead, {path: 'image.png'}, dirs.workspace)).error).toMatch(/binary/)
    expect((await run(fsRead, {offset: 5, path: 'short.txt'}, dirs.workspace)).error).toBe(
      'offset 5 is past the end of short.txt, which has 2 lines',
    )
  })

  it('says when a file is empty or missing', async () => {
    writeTree(dirs.workspace, {'empty.txt': ''})
    expect(await run(fsRead, {path: 'empty.txt'}, dirs.workspace)).toMatchObject({
      is_error: false,
      output: 'empty.txt is empty.',
    })
    expect((await run(fsRead, {path: 'nope.txt'}, dirs.workspace)).error).toBe('nope.txt: no such file or directory')
  })

  it('refuses paths outside the workspace, through .. or a symlink', async () => {
    writeFileSync(join(dirs.outside, 'secret.txt'), 'TOP SECRET')
    symlinkSync(join(dirs.outside, 'secret.txt'), join(dirs.workspace, 'link.txt'))
    for (const path of ['../outside/secret.txt', 'link.txt', join(dirs.outside, 'secret.txt')]) {
      const result = await run(fsRead, {path}, dirs.workspace)
      expect(result.is_error, path).toBe(true)
      expect(result.error).toMatch(/outside the workspace/)
      expect(result.output + result.error).not.toContain('TOP SECRET')
    }
  })

  it('does not block on a FIFO', async () => {
    execFileSync('mkfifo', [join(dirs.workspace, 'pipe')])
    expect((await run(fsRead, {path: 'pipe'}, dirs.workspace)).error).toMatch(/not a regular file/)
  })

  it('refuses a file with another hard link, which may be outside the workspace', async () => {
    writeFileSync(join(dirs.outside, 'secret.txt'), 'TOP SECRET')
    linkSync(join(dirs.outside, 'secret.txt'), join(dirs.workspace, 'hardlink.txt'))
    const result = await run(fsRead, {path: 'hardlink.txt'}, dirs.workspace)
    expect(result).toEqual({
      error:
        'hardlink.txt has 2 hard links: the same file has other names, maybe outside the workspace, so the file tools do not open it',
      is_error: true,
      output: '',
    })
  })
})
