import {mkdirSync, symlinkSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {FileWalk} from '../../../src/adapters/tools/file-walk.js'
import {rebaseGitignore} from '../../../src/adapters/tools/gitignore-rules.js'
import {IGNORE_TREE, IGNORE_TREE_VISIBLE, useTempWorkspace, writeTree} from './tool-harness.js'

async function walk(root: string, start = root): Promise<string[]> {
  const found: string[] = []
  for await (const file of new FileWalk({root, signal: new AbortController().signal, start}).files())
    found.push(file.relative)
  return found
}

describe('the file walk', () => {
  const dirs = useTempWorkspace()

  it('yields every file in path order, never entering .git', async () => {
    writeTree(dirs.workspace, {'.git/config': '', 'a.txt': '', 'a/z.txt': '', 'a-b': '', 'b/.hidden': '', 'B.txt': ''})
    expect(await walk(dirs.workspace)).toEqual(['B.txt', 'a-b', 'a.txt', 'a/z.txt', 'b/.hidden'])
  })

  it('respects the root .gitignore and nested ones, negations included', async () => {
    writeTree(dirs.workspace, IGNORE_TREE)
    expect(await walk(dirs.workspace)).toEqual(IGNORE_TREE_VISIBLE)
  })

  it('applies the .gitignore files above its start, but searches a start directory that is itself ignored', async () => {
    writeTree(dirs.workspace, {
      '.gitignore': '*.log\nvendor/\n',
      'src/a.log': '',
      'src/a.ts': '',
      'vendor/lib.js': '',
      'vendor/lib.log': '',
    })
    expect(await walk(dirs.workspace, join(dirs.workspace, 'src'))).toEqual(['src/a.ts'])
    expect(await walk(dirs.workspace, join(dirs.workspace, 'vendor'))).toEqual(['vendor/lib.js', 'vendor/lib.log'])
  })

  it('follows no symbolic link, to a directory or a file, inside the workspace or not', async () => {
    writeTree(dirs.workspace, {'real/a.txt': ''})
    writeTree(dirs.outside, {'secret.txt': ''})
    symlinkSync(join(dirs.workspace, 'real'), join(dirs.workspace, 'loop'))
    symlinkSync(dirs.outside, join(dirs.workspace, 'out'))
    symlinkSync(join(dirs.outside, 'secret.txt'), join(dirs.workspace, 'secret-link'))
    symlinkSync('real/a.txt', join(dirs.workspace, 'inside-link'))
    expect(await walk(dirs.workspace)).toEqual(['real/a.txt'])
  })

  it('applies a nested .gitignore in a directory whose name has glob characters', async () => {
    writeTree(dirs.workspace, {'[lib]/.gitignore': '*.tmp\n', '[lib]/a.tmp': '', '[lib]/a.ts': '', 'l/b.tmp': ''})
    expect(await walk(dirs.workspace)).toEqual(['[lib]/.gitignore', '[lib]/a.ts', 'l/b.tmp'])
  })

  it('stops at its entry budget and says so', async () => {
    writeTree(dirs.workspace, {'a/1': '', 'a/2': '', 'b/3': '', c: ''})
    const walk = new FileWalk({
      maxEntries: 3,
      root: dirs.workspace,
      signal: new AbortController().signal,
      start: dirs.workspace,
    })
    const found: string[] = []
    for await (const file of walk.files()) found.push(file.relative)
    expect(found).toEqual(['a/1', 'a/2'])
    expect(walk.truncated).toBe(true)
  })

  it('stops when its signal is aborted', async () => {
    mkdirSync(join(dirs.workspace, 'd'))
    writeTree(dirs.workspace, {'d/a': '', 'd/b': ''})
    const controller = new AbortController()
    controller.abort()
    const files = new FileWalk({root: dirs.workspace, signal: controller.signal, start: dirs.workspace}).files()
    await expect(files.next()).rejects.toThrow('cancelled')
  })
})

describe('rebasing a nested .gitignore', () => {
  it('anchors patterns with a slash and lets the others match at any depth', () => {
    expect(
      rebaseGitignore('# comment\n\n*.log\n/root.txt\na/b\nbuild/\n!keep.log\ntrailing   \nesc\\ \n', 'pkg'),
    ).toEqual([
      'pkg/**/*.log',
      'pkg/root.txt',
      'pkg/a/b',
      'pkg/**/build/',
      '!pkg/**/keep.log',
      'pkg/**/trailing',
      'pkg/**/esc\\ ',
    ])
  })

  it('escapes glob characters in the directory name', () => {
    expect(rebaseGitignore('*.js', '!weird [dir]*')).toEqual(['\\!weird \\[dir\\]\\*/**/*.js'])
  })
})
