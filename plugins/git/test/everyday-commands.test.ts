import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {runCli, unwrapped, useSandboxDirs} from '../../../test/helpers/cli.js'
import {makeRepo, type Repo} from './git-fixture.js'

const dirs = useSandboxDirs('hanzo-git-cmds-')
const cli = (repo: Repo, ...args: string[]) => runCli(args, {cwd: repo.dir, env: repo.env})

describe('hanzo-dev branch', () => {
  it('creates the branch from HEAD and switches to it, changes coming along', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('README.md', 'changed\n')
    const result = await cli(repo, 'branch', 'feature/x', '--json')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      branch: 'feature/x',
      from: repo.git('rev-parse', 'HEAD'),
      previous: 'main',
    })
    expect(repo.git('branch', '--show-current')).toBe('feature/x')
    expect(repo.git('status', '--porcelain')).toBe('M README.md')
  })

  it('refuses an invalid name (exit 2) and an existing one, saying which', async () => {
    const repo = makeRepo(dirs.box)
    const invalid = await cli(repo, 'branch', 'bad..name')
    expect(invalid.exitCode).toBe(2)
    expect(unwrapped(invalid.stderr)).toContain('"bad..name" is not a valid branch name')
    const existing = await cli(repo, 'branch', 'main')
    expect(existing.exitCode).toBe(1)
    expect(unwrapped(existing.stderr)).toContain('A branch named main exists already')
    expect(unwrapped(existing.stderr)).toContain('git switch main')
  })

  it('works on a detached HEAD and on a branch with no commit yet', async () => {
    const repo = makeRepo(dirs.box)
    repo.git('switch', '--quiet', '--detach', 'HEAD')
    expect(JSON.parse((await cli(repo, 'branch', 'from-detached', '--json')).stdout)).toMatchObject({
      branch: 'from-detached',
      previous: null,
    })
    const empty = makeRepo(dirs.box, 'empty', {commit: false})
    const unborn = await cli(empty, 'branch', 'first', '--json')
    expect(unborn.exitCode, unborn.stderr).toBe(0)
    expect(JSON.parse(unborn.stdout)).toEqual({branch: 'first', from: null, previous: 'main'})
  })
})

describe('hanzo-dev worktree', () => {
  it('adds ../REPO-NAME on a new branch and prints the path on stdout', async () => {
    const repo = makeRepo(dirs.box)
    const result = await cli(repo, 'worktree', 'fix/flaky')
    expect(result.exitCode, result.stderr).toBe(0)
    const path = join(dirs.box.home, 'repo-fix-flaky')
    expect(result.stdout).toBe(path)
    expect(existsSync(join(path, 'README.md'))).toBe(true)
    expect(repo.git('-C', path, 'branch', '--show-current')).toBe('fix/flaky')
    const again = await cli(repo, 'worktree', 'fix/flaky', '--json')
    expect(again.exitCode).toBe(1)
    expect(JSON.parse(again.stdout).error.message).toBe('A branch named fix/flaky exists already')
  })
})

describe('hanzo-dev diff', () => {
  it('shows staged and unstaged changes, or only staged ones; --json lists files with counts', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('a b ü.txt', 'one\n')
    repo.git('add', 'a b ü.txt')
    repo.write('README.md', 'hello\nagain\n')
    const all = await cli(repo, 'diff')
    expect(all.exitCode, all.stderr).toBe(0)
    expect(all.stdout).toContain('+again')
    expect(all.stdout).toContain('+one')
    const staged = await cli(repo, 'diff', '--staged')
    expect(staged.stdout).toContain('+one')
    expect(staged.stdout).not.toContain('+again')
    expect((await cli(repo, 'diff', '--stat')).stdout).toMatch(/2 files changed, 2 insertions/)
    const json = JSON.parse((await cli(repo, 'diff', '--json')).stdout)
    expect(json.files).toEqual([
      {added: 1, binary: false, deleted: 0, lock: false, path: 'README.md', status: 'M'},
      {added: 1, binary: false, deleted: 0, lock: false, path: 'a b ü.txt', status: 'A'},
    ])
    expect(json.diff).toContain('+again')
  })

  it('works before the first commit', async () => {
    const repo = makeRepo(dirs.box, 'empty', {commit: false})
    repo.write('first.txt', 'first\n')
    repo.git('add', 'first.txt')
    const result = await cli(repo, 'diff', '--staged')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain('+first')
  })
})

describe('hanzo-dev stash', () => {
  it('stashes as "hanzo: <ISO time>", or with -m; nothing to stash exits 0', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('README.md', 'changed\n')
    const stashed = await cli(repo, 'stash', '--json')
    expect(stashed.exitCode, stashed.stderr).toBe(0)
    const report = JSON.parse(stashed.stdout)
    expect(report).toMatchObject({ref: 'stash@{0}', stashed: true})
    expect(report.message).toMatch(/^hanzo: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(repo.git('stash', 'list', '--format=%s')).toContain(report.message)
    expect(repo.git('status', '--porcelain')).toBe('')
    const nothing = await cli(repo, 'stash')
    expect(nothing.exitCode).toBe(0)
    expect(nothing.stdout).toBe('Nothing to stash.')
    repo.write('new.txt', 'new\n')
    const untracked = await cli(repo, 'stash', '-u', '-m', 'my work')
    expect(untracked.stdout).toBe('Stashed as stash@{0}: my work (git stash pop brings it back)')
    expect(existsSync(join(repo.dir, 'new.txt'))).toBe(false)
  })
})

describe('outside a repository', () => {
  it.each([['branch', 'x'], ['worktree', 'x'], ['diff'], ['stash'], ['commit-push-pr', '--yes']])(
    '%s says so, exit 1, no stack',
    async (...args) => {
      const repo = makeRepo(dirs.box)
      const result = await runCli([...args, '--json'], {cwd: dirs.box.home, env: repo.env})
      expect(result.exitCode).toBe(1)
      expect(JSON.parse(result.stdout).error.message).toBe(`${dirs.box.home} is not in a git repository`)
      expect(result.stderr).not.toContain('    at ')
    },
  )
})
