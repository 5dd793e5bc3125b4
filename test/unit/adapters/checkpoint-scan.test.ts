import {mkdirSync, symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {scanWorkspace} from '../../../src/adapters/checkpoints/blobs.js'
import {FileWalk} from '../../../src/adapters/tools/file-walk.js'
import {IGNORE_TREE, IGNORE_TREE_VISIBLE, useTempWorkspace, writeTree} from '../tools/tool-harness.js'

async function walked(root: string, hidden: string[]): Promise<string[]> {
  const found: string[] = []
  for await (const file of new FileWalk({hidden, root, signal: new AbortController().signal, start: root}).files())
    found.push(file.relative)
  return found
}

describe('the checkpoint scan of a workspace', () => {
  const dirs = useTempWorkspace()

  it('sees exactly the files fs_glob walks: .gitignore rules nested and negated, no .git, no links, no hidden place', async () => {
    const root = dirs.workspace
    writeTree(root, {...IGNORE_TREE, '.env': 'x', 'data/sessions/s.jsonl': '{}', 'src/.hidden/c.ts': 'c'})
    symlinkSync(join(root, 'src', 'main.ts'), join(root, 'link.ts'))
    symlinkSync(join(root, 'src'), join(root, 'linked-dir'))
    mkdirSync(join(root, 'pkg', '.git'))
    writeTree(root, {'pkg/.git/HEAD': 'ref'})
    const hidden = [join(root, 'data')]

    const scan = await scanWorkspace({hidden, maxFileBytes: 1024, root}, new Map())

    const expected = [...IGNORE_TREE_VISIBLE, '.env', 'src/.hidden/c.ts'].sort()
    expect([...scan.keys()].sort()).toEqual(expected)
    expect((await walked(root, hidden)).sort()).toEqual(expected)
    expect(scan.get('src/main.ts')).toMatchObject({size: 'needle'.length})
  })

  it('gives the event loop turns on a large tree', async () => {
    const root = dirs.workspace
    writeTree(root, Object.fromEntries(Array.from({length: 1100}, (_, i) => [`d${i % 10}/f${i}.txt`, ''])))
    let ranDuring = false
    setImmediate(() => (ranDuring = true))
    const scanning = scanWorkspace({hidden: [], maxFileBytes: 1024, root}, new Map()).then((scan) => {
      expect(ranDuring).toBe(true)
      return scan
    })
    expect((await scanning).size).toBe(1100)
  })
})
