import {linkSync, readFileSync, statSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {fsEdit} from '../../../src/adapters/tools/fs-edit.js'
import {run, useTempWorkspace, writeTree} from './tool-harness.js'

describe('fs_edit', () => {
  const dirs = useTempWorkspace()
  const read = (path: string) => readFileSync(join(dirs.workspace, path), 'utf8')

  it('replaces a unique string and returns the unified diff', async () => {
    writeTree(dirs.workspace, {'src/a.ts': 'one\ntwo\nthree\n'})
    const result = await run(fsEdit, {new_string: 'TWO', old_string: 'two', path: 'src/a.ts'}, dirs.workspace)
    expect(result.is_error).toBe(false)
    expect(result.output).toBe(
      'Edited src/a.ts: replaced 1 occurrence.\n\n--- src/a.ts\n+++ src/a.ts\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
    )
    expect(read('src/a.ts')).toBe('one\nTWO\nthree\n')
  })

  it('refuses an old_string found several times, unless replace_all', async () => {
    writeTree(dirs.workspace, {'a.txt': 'x = 1\nx = 1\nx = 1\n'})
    const refused = await run(fsEdit, {new_string: 'y = 2', old_string: 'x = 1', path: 'a.txt'}, dirs.workspace)
    expect(refused.error).toBe(
      'old_string was found 3 times in a.txt; add surrounding lines to make it unique, or set replace_all to replace every occurrence',
    )
    expect(read('a.txt')).toBe('x = 1\nx = 1\nx = 1\n')
    const all = await run(
      fsEdit,
      {new_string: 'y = 2', old_string: 'x = 1', path: 'a.txt', replace_all: true},
      dirs.workspace,
    )
    expect(all.output).toMatch(/^Edited a\.txt: replaced 3 occurrences\./)
    expect(read('a.txt')).toBe('y = 2\ny = 2\ny = 2\n')
  })

  it('refuses an empty, absent or unchanged old_string', async () => {
    writeTree(dirs.workspace, {'a.txt': 'hello\n'})
    expect((await run(fsEdit, {new_string: 'x', old_string: '', path: 'a.txt'}, dirs.workspace)).error).toMatch(
      /old_string is empty/,
    )
    expect((await run(fsEdit, {new_string: 'x', old_string: 'bye', path: 'a.txt'}, dirs.workspace)).error).toMatch(
      /old_string was not found in a\.txt/,
    )
    expect(
      (await run(fsEdit, {new_string: 'hello', old_string: 'hello', path: 'a.txt'}, dirs.workspace)).error,
    ).toMatch(/are the same/)
    expect((await run(fsEdit, {new_string: 'x', old_string: 'y', path: 'missing.txt'}, dirs.workspace)).error).toBe(
      'missing.txt: no such file or directory',
    )
    expect(read('a.txt')).toBe('hello\n')
  })

  it('takes the replacement literally ($& and $1 mean nothing)', async () => {
    writeTree(dirs.workspace, {'a.txt': 'price\n'})
    await run(fsEdit, {new_string: '$& $1 $$', old_string: 'price', path: 'a.txt'}, dirs.workspace)
    expect(read('a.txt')).toBe('$& $1 $$\n')
  })

  it('matches a multi-line old_string in a CRLF file and keeps CRLF', async () => {
    writeTree(dirs.workspace, {'win.txt': 'a\r\nb\r\nc\r\n'})
    const result = await run(fsEdit, {new_string: 'B\nB2', old_string: 'a\nb', path: 'win.txt'}, dirs.workspace)
    expect(result.is_error).toBe(false)
    expect(read('win.txt')).toBe('B\r\nB2\r\nc\r\n')
  })

  it('refuses binary files, invalid UTF-8 and directories', async () => {
    writeTree(dirs.workspace, {
      'bin.dat': Buffer.from('abc\0def'),
      'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      'dir/x': '',
    })
    expect((await run(fsEdit, {new_string: 'x', old_string: 'abc', path: 'bin.dat'}, dirs.workspace)).error).toMatch(
      /binary/,
    )
    expect((await run(fsEdit, {new_string: 'x', old_string: 'caf', path: 'latin1.txt'}, dirs.workspace)).error).toMatch(
      /not valid UTF-8/,
    )
    expect((await run(fsEdit, {new_string: 'x', old_string: 'y', path: 'dir'}, dirs.workspace)).error).toMatch(
      /is a directory/,
    )
  })

  it('refuses files outside the workspace', async () => {
    writeFileSync(join(dirs.outside, 'victim.txt'), 'keep me')
    symlinkSync(join(dirs.outside, 'victim.txt'), join(dirs.workspace, 'victim.txt'))
    for (const path of ['victim.txt', '../outside/victim.txt']) {
      expect((await run(fsEdit, {new_string: 'x', old_string: 'keep', path}, dirs.workspace)).error).toMatch(
        /outside the workspace/,
      )
    }

    expect(readFileSync(join(dirs.outside, 'victim.txt'), 'utf8')).toBe('keep me')
  })

  it('refuses a file with another hard link, leaving both names as they were', async () => {
    writeFileSync(join(dirs.outside, 'victim.txt'), 'keep me')
    linkSync(join(dirs.outside, 'victim.txt'), join(dirs.workspace, 'victim.txt'))
    expect(
      (await run(fsEdit, {new_string: 'x', old_string: 'keep', path: 'victim.txt'}, dirs.workspace)).error,
    ).toMatch(/^victim\.txt has 2 hard links: .*so the file tools do not open it$/)
    expect(statSync(join(dirs.workspace, 'victim.txt')).nlink).toBe(2)
    expect(readFileSync(join(dirs.outside, 'victim.txt'), 'utf8')).toBe('keep me')
  })
})
