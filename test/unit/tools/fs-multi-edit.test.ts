import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {fsMultiEdit} from '../../../src/adapters/tools/fs-multi-edit.js'
import {run, toolContext, useTempWorkspace, writeTree} from './tool-harness.js'

describe('fs_multi_edit', () => {
  const dirs = useTempWorkspace()
  const read = (path: string) => readFileSync(join(dirs.workspace, path), 'utf8')
  const SOURCE = 'const a = 1\nconst b = 2\nconst c = 3\n'

  it('makes every edit in order and returns one diff of the whole change', async () => {
    writeTree(dirs.workspace, {'src/x.ts': SOURCE})
    const edits = [
      {new_string: 'const a = 10', old_string: 'const a = 1'},
      {new_string: 'const c = 30', old_string: 'const c = 3'},
    ]
    const result = await run(fsMultiEdit, {edits, path: 'src/x.ts'}, dirs.workspace)
    expect(result.is_error).toBe(false)
    expect(result.output).toBe(
      'Edited src/x.ts: 2 edits, replaced 2 occurrences.\n\n--- src/x.ts\n+++ src/x.ts\n@@ -1,3 +1,3 @@\n-const a = 1\n+const a = 10\n const b = 2\n-const c = 3\n+const c = 30\n',
    )
    expect(result.details).toEqual({
      files: [{after: 'const a = 10\nconst b = 2\nconst c = 30\n', before: SOURCE, path: 'src/x.ts'}],
      kind: 'edit',
    })
    expect(read('src/x.ts')).toBe('const a = 10\nconst b = 2\nconst c = 30\n')
  })

  it('applies each edit to the text the previous ones left', async () => {
    writeTree(dirs.workspace, {'a.txt': 'alpha\n'})
    // The second edit matches only what the first wrote; the third overlaps both.
    const edits = [
      {new_string: 'alpha beta', old_string: 'alpha'},
      {new_string: 'beta gamma', old_string: 'beta'},
      {new_string: 'ALPHA BETA', old_string: 'alpha beta'},
    ]
    const result = await run(fsMultiEdit, {edits, path: 'a.txt'}, dirs.workspace)
    expect(result.is_error).toBe(false)
    expect(read('a.txt')).toBe('ALPHA BETA gamma\n')
  })

  it('writes nothing when an edit is not found, and names that edit', async () => {
    writeTree(dirs.workspace, {'a.txt': SOURCE})
    const edits = [
      {new_string: 'const a = 10', old_string: 'const a = 1'},
      {new_string: 'const d = 4', old_string: 'const d = 0'},
    ]
    const result = await run(fsMultiEdit, {edits, path: 'a.txt'}, dirs.workspace)
    expect(result.error).toBe(
      'edit 2 of 2 failed (on the text edit 1 left): old_string was not found in a.txt; read the file again with fs_read and copy the text exactly, whitespace and indentation included. Nothing was written; fix that edit and call fs_multi_edit again with all the edits',
    )
    expect(read('a.txt')).toBe(SOURCE)
  })

  it('writes nothing when an edit is not unique, unless that edit says replace_all', async () => {
    writeTree(dirs.workspace, {'a.txt': 'x = 1\nx = 1\ny = 2\n'})
    const edits = [
      {new_string: 'y = 3', old_string: 'y = 2'},
      {new_string: 'x = 0', old_string: 'x = 1'},
    ]
    const refused = await run(fsMultiEdit, {edits, path: 'a.txt'}, dirs.workspace)
    expect(refused.error).toMatch(
      /^edit 2 of 2 failed \(on the text edit 1 left\): old_string was found 2 times in a\.txt; .*or set replace_all/,
    )
    expect(read('a.txt')).toBe('x = 1\nx = 1\ny = 2\n')
    const all = await run(
      fsMultiEdit,
      {edits: [edits[0], {...edits[1], replace_all: true}], path: 'a.txt'},
      dirs.workspace,
    )
    expect(all.output).toMatch(/^Edited a\.txt: 2 edits, replaced 3 occurrences\./)
    expect(read('a.txt')).toBe('x = 0\nx = 0\ny = 3\n')
  })

  it('names an empty or unchanged edit, and a file that is not there', async () => {
    writeTree(dirs.workspace, {'a.txt': 'hello\n'})
    const failure = async (edits: Array<{old_string: string; new_string: string}>, path = 'a.txt') =>
      (await run(fsMultiEdit, {edits, path}, dirs.workspace)).error
    expect(await failure([{new_string: 'x', old_string: ''}])).toMatch(/^edit 1 of 1 failed: old_string is empty/)
    expect(
      await failure([
        {new_string: 'hi', old_string: 'hello'},
        {new_string: 'hi', old_string: 'hi'},
        {new_string: 'x', old_string: 'never'},
      ]),
    ).toMatch(/^edit 2 of 3 failed \(on the text edit 1 left\): old_string and new_string are the same/)
    expect(await failure([{new_string: 'x', old_string: 'y'}], 'missing.txt')).toBe(
      'missing.txt: no such file or directory',
    )
    expect(read('a.txt')).toBe('hello\n')
  })

  it('keeps CRLF line endings and takes replacements literally', async () => {
    writeTree(dirs.workspace, {'win.txt': 'a\r\nb\r\nc\r\n'})
    const edits = [
      {new_string: 'A\nB', old_string: 'a\nb'},
      {new_string: '$& $1', old_string: 'c'},
    ]
    expect((await run(fsMultiEdit, {edits, path: 'win.txt'}, dirs.workspace)).is_error).toBe(false)
    expect(read('win.txt')).toBe('A\r\nB\r\n$& $1\r\n')
  })

  it('previews the combined change, or what the edits ask for when one would fail', async () => {
    writeTree(dirs.workspace, {'a.txt': SOURCE})
    const preview = (edits: Array<{old_string: string; new_string: string}>) =>
      fsMultiEdit.preview!({edits, path: 'a.txt'}, toolContext(dirs.workspace))
    expect(
      await preview([
        {new_string: 'const a = 10', old_string: 'const a = 1'},
        {new_string: 'const b = 20', old_string: 'const b = 2'},
      ]),
    ).toEqual([{after: 'const a = 10\nconst b = 20\nconst c = 3\n', before: SOURCE, path: 'a.txt'}])
    expect(
      await preview([
        {new_string: 'A', old_string: 'const a'},
        {new_string: 'Z', old_string: 'missing'},
      ]),
    ).toEqual([{after: 'A\nZ', before: 'const a\nmissing', path: 'a.txt'}])
    expect(read('a.txt')).toBe(SOURCE)
  })
})
