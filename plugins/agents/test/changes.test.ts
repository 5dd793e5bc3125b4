import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execFileSync} from 'node:child_process'
import {describe, expect, it} from 'vitest'

import {useSandboxDirs} from '../../../test/helpers/cli.js'
import {workspaceChanges} from '../src/changes.js'

describe('workspace changes', () => {
  const dirs = useSandboxDirs('hanzo-agents-changes-', 'repo', 'plain')
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: dirs.repo,
      env: {
        ...process.env,
        ...dirs.box.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    })

  it('in git: the working tree against HEAD, new files included', async () => {
    git('init', '-q')
    writeFileSync(join(dirs.repo, 'a.txt'), 'one\n')
    git('add', '.')
    git('commit', '-qm', 'start')
    writeFileSync(join(dirs.repo, 'a.txt'), 'two\n')
    mkdirSync(join(dirs.repo, 'src'))
    writeFileSync(join(dirs.repo, 'src', 'new file.ts'), 'export {}\n')
    const changes = await workspaceChanges(dirs.repo, [], {...process.env, ...dirs.box.env})
    expect(changes.files).toEqual(['a.txt', 'src/new file.ts'])
    expect(changes.diff).toContain('-one\n+two')
    expect(changes.diff).toContain('+export {}')
  })

  it('outside git: the files the agent wrote', async () => {
    const changes = await workspaceChanges(dirs.plain, ['b.txt', join(dirs.plain, 'a.txt'), 'b.txt'], {
      ...process.env,
      ...dirs.box.env,
    })
    expect(changes).toEqual({files: ['a.txt', 'b.txt']})
  })
})
