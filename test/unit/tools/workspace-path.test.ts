import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {ToolFailure} from '../../../src/adapters/tools/tool-failure.js'
import {resolveInWorkspace, workspaceRoot} from '../../../src/adapters/tools/workspace-path.js'
import {isInside} from '@hanzo-dev/sdk'
import {useTempWorkspace} from './tool-harness.js'

describe('workspace confinement', () => {
  const dirs = useTempWorkspace()

  it('resolves relative and absolute paths inside the workspace, existing or not', async () => {
    mkdirSync(join(dirs.workspace, 'src'))
    writeFileSync(join(dirs.workspace, 'src', 'a.ts'), '')
    expect(await resolveInWorkspace(dirs.workspace, 'src/a.ts')).toEqual({
      absolute: join(dirs.workspace, 'src', 'a.ts'),
      relative: 'src/a.ts',
    })
    expect(await resolveInWorkspace(dirs.workspace, join(dirs.workspace, 'src'))).toEqual({
      absolute: join(dirs.workspace, 'src'),
      relative: 'src',
    })
    expect(await resolveInWorkspace(dirs.workspace, 'new/dir/file.txt')).toEqual({
      absolute: join(dirs.workspace, 'new', 'dir', 'file.txt'),
      relative: 'new/dir/file.txt',
    })
    expect(await resolveInWorkspace(dirs.workspace, 'src/../.')).toEqual({absolute: dirs.workspace, relative: '.'})
  })

  it('refuses .. and absolute paths that leave the workspace', async () => {
    writeFileSync(join(dirs.outside, 'secret.txt'), 'no')
    await expect(resolveInWorkspace(dirs.workspace, '../outside/secret.txt')).rejects.toThrow(/outside the workspace/)
    await expect(resolveInWorkspace(dirs.workspace, join(dirs.outside, 'secret.txt'))).rejects.toBeInstanceOf(
      ToolFailure,
    )
    await expect(resolveInWorkspace(dirs.workspace, '/etc/passwd')).rejects.toThrow(/outside the workspace/)
    await expect(resolveInWorkspace(dirs.workspace, 'a/../../outside')).rejects.toThrow(/outside the workspace/)
  })

  it('refuses a sibling whose name starts with the workspace name', async () => {
    const sibling = `${dirs.workspace}b`
    mkdirSync(sibling)
    writeFileSync(join(sibling, 'file.txt'), 'no')
    await expect(resolveInWorkspace(dirs.workspace, join(sibling, 'file.txt'))).rejects.toThrow(/outside the workspace/)
    await expect(resolveInWorkspace(dirs.workspace, '../wsb/file.txt')).rejects.toThrow(/outside the workspace/)
    await expect(resolveInWorkspace(dirs.workspace, sibling)).rejects.toThrow(/outside the workspace/)
    expect(isInside('/work/a', '/work/ab')).toBe(false)
    expect(isInside('/work/a', '/work/a/b')).toBe(true)
    expect(isInside('/work/a', '/work/a')).toBe(true)
    expect(isInside('/', '/etc')).toBe(true)
  })

  it('refuses symlinks that lead outside: to a directory, to a file, dangling, chained', async () => {
    writeFileSync(join(dirs.outside, 'secret.txt'), 'no')
    symlinkSync(dirs.outside, join(dirs.workspace, 'out-dir'))
    symlinkSync(join(dirs.outside, 'secret.txt'), join(dirs.workspace, 'out-file'))
    symlinkSync(join(dirs.outside, 'not-yet.txt'), join(dirs.workspace, 'dangling'))
    symlinkSync('out-dir', join(dirs.workspace, 'chain'))
    for (const path of [
      'out-dir/secret.txt',
      'out-dir',
      'out-dir/new.txt',
      'out-file',
      'dangling',
      'chain/secret.txt',
    ]) {
      await expect(resolveInWorkspace(dirs.workspace, path), path).rejects.toThrow(
        /outside the workspace .*\(it resolves to /,
      )
    }
  })

  it('follows symlinks that stay inside, to their canonical target', async () => {
    mkdirSync(join(dirs.workspace, 'real'))
    writeFileSync(join(dirs.workspace, 'real', 'a.txt'), '')
    symlinkSync('real', join(dirs.workspace, 'alias'))
    symlinkSync('real/later.txt', join(dirs.workspace, 'dangling-inside'))
    expect(await resolveInWorkspace(dirs.workspace, 'alias/a.txt')).toEqual({
      absolute: join(dirs.workspace, 'real', 'a.txt'),
      relative: 'real/a.txt',
    })
    expect((await resolveInWorkspace(dirs.workspace, 'dangling-inside')).relative).toBe('real/later.txt')
  })

  it('works when the workspace itself is reached through a symlink', async () => {
    const link = join(dirs.base, 'ws-link')
    symlinkSync(dirs.workspace, link)
    const root = await workspaceRoot(link)
    expect(root).toBe(dirs.workspace)
    expect((await resolveInWorkspace(root, join(link, 'x.txt'))).relative).toBe('x.txt')
  })

  it('reports a symlink loop and a NUL byte as tool failures', async () => {
    symlinkSync('loop-b', join(dirs.workspace, 'loop-a'))
    symlinkSync('loop-a', join(dirs.workspace, 'loop-b'))
    await expect(resolveInWorkspace(dirs.workspace, 'loop-a')).rejects.toMatchObject({code: 'ELOOP'})
    await expect(resolveInWorkspace(dirs.workspace, 'a\0b')).rejects.toThrow(/NUL/)
  })
})
