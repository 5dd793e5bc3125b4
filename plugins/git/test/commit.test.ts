import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../../src/testing/fake-model/server.js'
import {runCli, unwrapped, useSandboxDirs} from '../../../test/helpers/cli.js'
import {makeRepo, type Repo, writeHook} from './git-fixture.js'

const dirs = useSandboxDirs('hanzo-git-commit-')
let model: FakeModel | undefined
afterEach(async () => {
  await model?.close()
  model = undefined
})

async function withModel(script: Script) {
  model = await startFakeModel(script)
  return model
}

function cli(repo: Repo, args: string[], cwd = repo.dir) {
  return runCli(model ? [...args, '--base-url', model.url] : args, {cwd, env: repo.env})
}

/** What the model was sent as the change: the last user message of request `i`. */
function sentChange(i = 0): string {
  const body = model!.requests.filter((r) => r.method === 'POST')[i].body as {
    messages: Array<{role: string; content: string}>
  }
  return body.messages.filter((m) => m.role === 'user').at(-1)!.content
}

describe('hanzo-dev commit', () => {
  it('stages tracked changes, commits with the model message and reports it as JSON', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('README.md', 'hello\nworld\n')
    repo.write('untracked.txt', 'not mine\n')
    await withModel({
      turns: [
        {
          expect: {last_user_contains: 'README.md', system_contains: 'Conventional Commits'},
          text: 'docs(readme): greet the world\n\nSay who is greeted.',
        },
      ],
    })
    const result = await cli(repo, ['commit', '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report).toMatchObject({
      amended: false,
      branch: 'main',
      committed: true,
      files: [{path: 'README.md', status: 'M'}],
      message: 'docs(readme): greet the world\n\nSay who is greeted.',
    })
    expect(report.sha).toBe(repo.git('rev-parse', 'HEAD'))
    expect(repo.git('log', '-1', '--format=%B')).toBe('docs(readme): greet the world\n\nSay who is greeted.')
    expect(repo.git('status', '--porcelain')).toBe('?? untracked.txt')
    expect(sentChange()).toContain('+world')
    expect((model!.requests.find((r) => r.method === 'POST')!.body as {tools?: unknown[]}).tools ?? []).toEqual([])
    expect(existsSync(join(repo.dir, '.git', 'HANZO_COMMIT_MSG'))).toBe(false)
  })

  it('--all lists the new files first; unicode and spaces in names, a binary file and a lock file are summarized', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('dir with space/naïve ü file.txt', 'grüße\n')
    repo.write('logo.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 0xff]))
    repo.write(
      'package-lock.json',
      `${JSON.stringify({lockfileVersion: 3, packages: {a: {version: '1.0.0'}}}, null, 2)}\n`,
    )
    await withModel({turns: [{text: '```\nchore: add the files\n```'}]})
    const result = await cli(repo, ['commit', '--all', '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toContain(
      'Adding 3 new file(s):\n  dir with space/naïve ü file.txt\n  logo.png\n  package-lock.json',
    )
    expect(JSON.parse(result.stdout).files.map((f: {path: string}) => f.path)).toEqual([
      'dir with space/naïve ü file.txt',
      'logo.png',
      'package-lock.json',
    ])
    expect(repo.git('log', '-1', '--format=%B')).toBe('chore: add the files')
    const sent = sentChange()
    expect(sent).toContain('A dir with space/naïve ü file.txt (+1 -0)')
    expect(sent).toContain('+grüße')
    expect(sent).toContain('A logo.png (binary file)')
    expect(sent).toContain('A package-lock.json (lock file, +8 -0, diff not shown)')
    expect(sent).not.toContain('lockfileVersion')
  })

  it('cuts a 5 MB diff, keeping the list of every file', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('big.txt', `${'x'.repeat(99)}\n`.repeat(50_000))
    repo.write('small.txt', 'small\n')
    await withModel({turns: [{text: 'feat: add big data'}]})
    const result = await cli(repo, ['commit', '--all', '--yes'])
    expect(result.exitCode, result.stderr).toBe(0)
    const sent = sentChange()
    expect(sent.length).toBeLessThan(70_000)
    expect(sent).toContain('A big.txt (+50000 -0)')
    expect(sent).toContain('A small.txt (+1 -0)')
    expect(sent).toContain("[the rest of this file's diff is cut")
    expect(sent).toContain('+small')
    expect(repo.git('show', '--stat', '--format=%s', 'HEAD')).toContain('big.txt')
  })

  it('a failed model call says why and leaves the index as it was (intent-to-add and partly staged files too)', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('README.md', 'staged\n')
    repo.git('add', 'README.md')
    repo.write('README.md', 'staged\nand not\n')
    repo.write('new.txt', 'new\n')
    repo.git('add', '--intent-to-add', 'new.txt')
    repo.write('other.txt', 'other\n')
    repo.git('add', 'other.txt')
    const before = repo.indexState()
    await withModel({
      turns: [{body: {message: 'Incorrect API key provided', type: 'invalid_request_error'}, status: 401}],
    })
    const result = await cli(repo, ['commit', '--all'])
    expect(result.exitCode).toBe(1)
    expect(unwrapped(result.stderr)).toContain('The model could not write the commit message')
    expect(unwrapped(result.stderr)).toContain('Incorrect API key provided')
    expect(result.stderr).not.toContain('    at ')
    expect(repo.indexState()).toBe(before)
    expect(repo.git('rev-list', '--count', 'HEAD')).toBe('1')
  })

  it('says there is nothing to commit, exit 0, and points at --all for new files', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('new.txt', 'new\n')
    const result = await cli(repo, ['commit'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Nothing to commit (1 new file(s) not tracked: --all adds them).')
  })

  it('keeps the message when a hook rejects the commit, and commit -F retries with it', async () => {
    const repo = makeRepo(dirs.box)
    writeHook(repo, 'pre-commit', '#!/bin/sh\necho "lint: README.md has a TODO" >&2\nexit 1\n')
    repo.write('README.md', 'hello\nTODO\n')
    await withModel({turns: [{text: 'docs: add a todo'}]})
    const rejected = await cli(repo, ['commit'])
    expect(rejected.exitCode).toBe(1)
    expect(rejected.stderr).toContain('lint: README.md has a TODO')
    const said = unwrapped(rejected.stderr)
    expect(said).toContain('A commit hook rejected the commit; the message is kept in .git/HANZO_COMMIT_MSG')
    expect(said).toContain('hanzo-dev commit -F .git/HANZO_COMMIT_MSG')
    expect(readFileSync(join(repo.dir, '.git', 'HANZO_COMMIT_MSG'), 'utf8')).toBe('docs: add a todo\n')
    expect(repo.git('diff', '--cached', '--name-only')).toBe('README.md')

    writeHook(repo, 'pre-commit', '#!/bin/sh\nexit 0\n')
    await model!.close()
    model = undefined
    const retried = await cli(repo, ['commit', '-F', '.git/HANZO_COMMIT_MSG'])
    expect(retried.exitCode, retried.stderr).toBe(0)
    expect(repo.git('log', '-1', '--format=%s')).toBe('docs: add a todo')
    expect(existsSync(join(repo.dir, '.git', 'HANZO_COMMIT_MSG'))).toBe(false)
  })

  it('-m skips the model, --no-verify skips the hooks, and the retry hint is relative to a subdirectory', async () => {
    const repo = makeRepo(dirs.box)
    writeHook(repo, 'commit-msg', '#!/bin/sh\nexit 1\n')
    repo.write('src/a.txt', 'a\n')
    repo.git('add', 'src/a.txt')
    repo.write('src/a.txt', 'a\nb\n')
    const rejected = await cli(repo, ['commit', '-m', 'fix: b'], join(repo.dir, 'src'))
    expect(rejected.exitCode).toBe(1)
    expect(unwrapped(rejected.stderr)).toContain('hanzo-dev commit -F ../.git/HANZO_COMMIT_MSG')
    const skipped = await cli(repo, ['commit', '-m', 'fix: b', '--no-verify', '--json'], join(repo.dir, 'src'))
    expect(skipped.exitCode, skipped.stderr).toBe(0)
    expect(JSON.parse(skipped.stdout)).toMatchObject({files: [{path: 'src/a.txt', status: 'A'}], message: 'fix: b'})
  })

  it('commits on a detached HEAD, and --amend rewrites the last commit', async () => {
    const repo = makeRepo(dirs.box)
    repo.git('switch', '--quiet', '--detach', 'HEAD')
    repo.write('README.md', 'detached\n')
    const detached = await cli(repo, ['commit', '-m', 'docs: detached', '--json'])
    expect(detached.exitCode, detached.stderr).toBe(0)
    expect(JSON.parse(detached.stdout)).toMatchObject({branch: null, committed: true})
    repo.write('README.md', 'detached, amended\n')
    await withModel({
      turns: [
        {
          expect: {last_user_contains: 'This amends the last commit, whose message was:\ndocs: detached'},
          text: 'docs: amend it',
        },
      ],
    })
    const amended = await cli(repo, ['commit', '--amend', '--yes'])
    expect(amended.exitCode, amended.stderr).toBe(0)
    expect(amended.stdout).toContain('Amended [detached HEAD')
    expect(repo.git('rev-list', '--count', 'HEAD')).toBe('2')
    expect(repo.git('log', '-1', '--format=%s')).toBe('docs: amend it')
    expect(sentChange()).toContain('+detached, amended')
  })

  it('refuses to stage files with unresolved conflicts, naming them', async () => {
    const repo = makeRepo(dirs.box)
    repo.git('switch', '--quiet', '-c', 'other')
    repo.write('README.md', 'theirs\n')
    repo.git('commit', '--quiet', '-am', 'theirs')
    repo.git('switch', '--quiet', 'main')
    repo.write('README.md', 'ours\n')
    repo.git('commit', '--quiet', '-am', 'ours')
    expect(() => repo.git('merge', '--quiet', 'other')).toThrow()
    const before = repo.indexState()
    const result = await cli(repo, ['commit', '-m', 'merge'])
    expect(result.exitCode).toBe(1)
    expect(unwrapped(result.stderr)).toContain('1 file(s) have unresolved conflicts: README.md')
    expect(repo.indexState()).toBe(before)
  })

  it('outside a repository says so, with no stack trace', async () => {
    const result = await runCli(['commit', '-m', 'x'], {cwd: dirs.box.home, env: makeRepo(dirs.box).env})
    expect(result.exitCode).toBe(1)
    expect(unwrapped(result.stderr)).toContain(`${dirs.box.home} is not in a git repository`)
    expect(result.stderr).not.toContain('    at ')
  })
})
