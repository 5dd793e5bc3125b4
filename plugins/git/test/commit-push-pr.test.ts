import {execFileSync} from 'node:child_process'
import {chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import type {Script} from '../../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../../src/testing/fake-model/server.js'
import {runCli, unwrapped, useSandboxDirs} from '../../../test/helpers/cli.js'
import {addOrigin, makeRepo, type Repo} from './git-fixture.js'

const dirs = useSandboxDirs('hanzo-git-pr-')
let model: FakeModel | undefined
afterEach(async () => {
  await model?.close()
  model = undefined
})

const WEB_REMOTE = 'https://github.com/acme/widgets.git'
/**
 * A PATH with node, git and what the recording gh uses, and never a real gh (Debian's may be installed):
 * a directory of links to just those programs.
 */
let BASE_PATH = ''
beforeEach(() => {
  const bin = join(dirs.box.home, 'base-bin')
  mkdirSync(bin)
  symlinkSync(process.execPath, join(bin, 'node'))
  for (const tool of ['git', 'sh', 'ls', 'wc'])
    symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], {encoding: 'utf8'}).trim(), join(bin, tool))
  BASE_PATH = bin
})

/** A repository whose origin reads as a GitHub URL (what the compare URL is made from) while pushes go to a bare repository. */
function setUp(remote = WEB_REMOTE): {repo: Repo; bare: string} {
  const repo = makeRepo(dirs.box)
  const bare = addOrigin(dirs.box, repo)
  repo.git('remote', 'set-url', 'origin', remote)
  repo.git('config', `url.${bare}.insteadOf`, remote)
  repo.git('fetch', '--quiet', 'origin')
  repo.git('remote', 'set-head', 'origin', 'main')
  return {bare, repo}
}

/** A recording gh: each call's arguments go to a file of their own in `log`; `auth status` fails when GH_LOGGED_OUT is set. */
function recordingGh(): {bin: string; calls(): string[][]} {
  const bin = join(dirs.box.home, 'gh-bin')
  const log = join(dirs.box.home, 'gh-calls')
  mkdirSync(bin, {recursive: true})
  mkdirSync(log, {recursive: true})
  writeFileSync(
    join(bin, 'gh'),
    `#!/bin/sh
n=$(ls "${log}" | wc -l)
printf '%s\\0' "$@" > "${log}/$n"
case "$1 $2" in
  "auth status") if [ -n "$GH_LOGGED_OUT" ]; then echo "You are not logged into any GitHub hosts. To log in, run: gh auth login" >&2; exit 1; fi; echo "Logged in to github.com"; exit 0 ;;
  "pr create") echo "https://github.com/acme/widgets/pull/7"; exit 0 ;;
esac
exit 1
`,
  )
  chmodSync(join(bin, 'gh'), 0o755)
  const calls = () =>
    readdirSync(log)
      .sort((a, b) => Number(a) - Number(b))
      .map((f) => readFileSync(join(log, f), 'utf8').split('\0').slice(0, -1))
  return {bin, calls}
}

async function run(repo: Repo, args: string[], options: {script?: Script; env?: Record<string, string>} = {}) {
  if (options.script) model = await startFakeModel(options.script)
  const modelArgs = model ? ['--base-url', model.url] : []
  return runCli(['commit-push-pr', ...args, ...modelArgs], {
    cwd: repo.dir,
    env: {...repo.env, PATH: BASE_PATH, ...options.env},
  })
}

const bareRef = (bare: string, ref: string) =>
  execFileSync('git', ['--git-dir', bare, 'rev-parse', ref], {encoding: 'utf8'}).trim()

describe('hanzo-dev commit-push-pr', () => {
  it('on main with --yes: a branch named for the message, the commit, the push and gh pr create with the model title and body', async () => {
    const {bare, repo} = setUp()
    const gh = recordingGh()
    repo.write('README.md', 'hello\nkeep trailing commas\n')
    const result = await run(repo, ['--yes', '--json'], {
      env: {PATH: `${gh.bin}:${BASE_PATH}`},
      script: {
        turns: [
          {expect: {system_contains: 'Conventional Commits'}, text: 'fix(parser): keep trailing commas'},
          {
            expect: {
              last_user_contains: 'fix(parser): keep trailing commas',
              system_contains: 'pull request descriptions',
            },
            text: 'Keep trailing commas\n\nThe parser dropped them.\n\n## Changes\n- README',
          },
        ],
      },
    })
    expect(result.exitCode, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout)
    const branch = 'fix/parser-keep-trailing-commas'
    expect(report).toMatchObject({
      base: 'main',
      branch,
      commit: {branch, committed: true, message: 'fix(parser): keep trailing commas'},
      pullRequest: {status: 'created', url: 'https://github.com/acme/widgets/pull/7'},
      pushed: true,
    })
    expect(result.stderr).toContain(`Created the branch ${branch} (from main)`)
    expect(bareRef(bare, `refs/heads/${branch}`)).toBe(repo.git('rev-parse', 'HEAD'))
    expect(bareRef(bare, 'refs/heads/main')).toBe(repo.git('rev-parse', 'main'))
    expect(repo.git('rev-parse', '--abbrev-ref', `${branch}@{upstream}`)).toBe(`origin/${branch}`)
    expect(gh.calls()).toEqual([
      ['auth', 'status'],
      [
        'pr',
        'create',
        '--base',
        'main',
        '--head',
        branch,
        '--title',
        'Keep trailing commas',
        '--body',
        'The parser dropped them.\n\n## Changes\n- README',
      ],
    ])
  })

  it('--title, --body and --draft go to gh as given, with no model call for them', async () => {
    const {repo} = setUp()
    const gh = recordingGh()
    repo.git('switch', '--quiet', '-c', 'feature/x')
    repo.write('README.md', 'changed\n')
    const result = await run(repo, ['--yes', '--draft', '--title', 'My title', '--body', 'My body'], {
      env: {PATH: `${gh.bin}:${BASE_PATH}`},
      script: {turns: [{text: 'docs: change the readme'}]},
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain('Pull request https://github.com/acme/widgets/pull/7')
    expect(gh.calls()[1]).toEqual([
      'pr',
      'create',
      '--base',
      'main',
      '--head',
      'feature/x',
      '--title',
      'My title',
      '--body',
      'My body',
      '--draft',
    ])
    expect(model!.requests.filter((r) => r.method === 'POST')).toHaveLength(1)
  })

  it('without gh: commits, pushes and prints the compare URL (never the token in the remote URL) and how to install gh', async () => {
    const remote = 'https://someone:secret-token-123@github.com/acme/widgets.git'
    const {bare, repo} = setUp(remote)
    repo.git('switch', '--quiet', '-c', 'feature/x')
    repo.write('README.md', 'changed\n')
    const result = await run(repo, ['--yes'], {script: {turns: [{text: 'docs: change the readme'}]}})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain('Pushed feature/x to origin')
    expect(result.stdout).toContain(
      'gh (the GitHub CLI) is not installed; open it in your browser: https://github.com/acme/widgets/compare/main...feature/x?expand=1',
    )
    expect(result.stdout).toContain('https://cli.github.com')
    expect(`${result.stdout}${result.stderr}`).not.toContain('secret-token-123')
    expect(bareRef(bare, 'refs/heads/feature/x')).toBe(repo.git('rev-parse', 'HEAD'))
  })

  it('gh not logged in: the push happens, the compare URL and gh auth login are shown', async () => {
    const {repo} = setUp()
    const gh = recordingGh()
    repo.git('switch', '--quiet', '-c', 'feature/y')
    repo.write('README.md', 'changed\n')
    const result = await run(repo, ['--yes', '--json'], {
      env: {GH_LOGGED_OUT: '1', PATH: `${gh.bin}:${BASE_PATH}`},
      script: {turns: [{text: 'docs: change the readme'}]},
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout).pullRequest).toEqual({
      compareUrl: 'https://github.com/acme/widgets/compare/main...feature/y?expand=1',
      reason: 'You are not logged into any GitHub hosts. To log in, run: gh auth login',
      status: 'not-logged-in',
    })
    expect(gh.calls()).toEqual([['auth', 'status']])
  })

  it('when the model cannot write the pull request after the push: exit 1, and the compare URL to open it by hand', async () => {
    const {bare, repo} = setUp()
    const gh = recordingGh()
    repo.git('switch', '--quiet', '-c', 'feature/w')
    repo.write('README.md', 'changed\n')
    const result = await run(repo, ['--yes', '--json'], {
      env: {PATH: `${gh.bin}:${BASE_PATH}`},
      script: {
        turns: [{text: 'docs: change the readme'}, {body: {message: 'Incorrect API key provided'}, status: 401}],
      },
    })
    expect(result.exitCode).toBe(1)
    const report = JSON.parse(result.stdout)
    expect(report).toMatchObject({
      pullRequest: {compareUrl: 'https://github.com/acme/widgets/compare/main...feature/w?expand=1', status: 'failed'},
      pushed: true,
    })
    expect(report.pullRequest.reason).toContain('Incorrect API key provided')
    expect(bareRef(bare, 'refs/heads/feature/w')).toBe(repo.git('rev-parse', 'HEAD'))
    expect(gh.calls()).toEqual([['auth', 'status']])
  })

  it('a push rejected as non-fast-forward is a clear error, and the commit stays', async () => {
    const {bare, repo} = setUp()
    repo.git('switch', '--quiet', '-c', 'feature/z')
    repo.git('push', '--quiet', '-u', 'origin', 'feature/z')
    // Someone else pushes to the same branch first.
    const other = join(dirs.box.home, 'other')
    execFileSync('git', ['clone', '--quiet', '--branch', 'feature/z', bare, other], {env: repo.env})
    writeFileSync(join(other, 'theirs.txt'), 'theirs\n')
    execFileSync('git', ['add', 'theirs.txt'], {cwd: other, env: repo.env})
    execFileSync('git', ['commit', '--quiet', '-m', 'theirs'], {cwd: other, env: repo.env})
    execFileSync('git', ['push', '--quiet'], {cwd: other, env: repo.env})
    repo.write('README.md', 'mine\n')
    const result = await run(repo, ['--yes'], {script: {turns: [{text: 'docs: mine'}]}})
    expect(result.exitCode).toBe(1)
    const said = unwrapped(result.stderr)
    expect(said).toContain(
      'The push was rejected: origin has commits that feature/z does not (non-fast-forward); your commit',
    )
    expect(said).toContain('git pull --rebase origin feature/z')
    expect(result.stderr).not.toContain('    at ')
    expect(repo.git('log', '-1', '--format=%s')).toBe('docs: mine')
    expect(repo.git('status', '--porcelain')).toBe('')
  })

  it('a push the remote refuses for credentials is a clear error, and the commit stays', async () => {
    const repo = makeRepo(dirs.box)
    // A git host that wants a login nobody gave.
    const server = createServer((_request, response) =>
      response.writeHead(401, {'WWW-Authenticate': 'Basic realm="git"'}).end(),
    )
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      repo.git('remote', 'add', 'origin', `http://127.0.0.1:${(server.address() as AddressInfo).port}/acme/widgets.git`)
      repo.git('switch', '--quiet', '-c', 'feature/auth')
      repo.write('README.md', 'changed\n')
      const result = await run(repo, ['--yes'], {script: {turns: [{text: 'docs: change the readme'}]}})
      expect(result.exitCode).toBe(1)
      expect(unwrapped(result.stderr)).toContain(
        'The push was refused: origin did not accept your credentials; your commit',
      )
      expect(repo.git('log', '-1', '--format=%s')).toBe('docs: change the readme')
    } finally {
      server.close()
    }
  })

  it('with no remote: says so before staging or asking the model', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('README.md', 'changed\n')
    const before = repo.indexState()
    const result = await run(repo, ['--yes'])
    expect(result.exitCode).toBe(1)
    expect(unwrapped(result.stderr)).toContain('This repository has no remote named origin')
    expect(unwrapped(result.stderr)).toContain('git remote add origin URL')
    expect(repo.indexState()).toBe(before)
  })

  it('on a detached HEAD: the commit goes on a new branch, which is pushed', async () => {
    const {bare, repo} = setUp()
    repo.git('switch', '--quiet', '--detach', 'HEAD')
    repo.write('README.md', 'detached\n')
    const result = await run(repo, ['--yes', '--json'], {script: {turns: [{text: 'feat(core): Grüße from détached'}]}})
    expect(result.exitCode, result.stderr).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report.branch).toBe('feat/core-grusse-from-detached')
    expect(report.pullRequest.status).toBe('no-gh')
    expect(bareRef(bare, 'refs/heads/feat/core-grusse-from-detached')).toBe(repo.git('rev-parse', 'HEAD'))
  })

  it('with nothing to commit on a branch ahead of origin: pushes it and proposes its commits', async () => {
    const {bare, repo} = setUp()
    const gh = recordingGh()
    repo.git('switch', '--quiet', '-c', 'feature/done')
    repo.write('README.md', 'done\n')
    repo.git('commit', '--quiet', '-am', 'feat: finish it')
    const result = await run(repo, ['--yes', '--json'], {
      env: {PATH: `${gh.bin}:${BASE_PATH}`},
      script: {
        turns: [
          {
            expect: {last_user_contains: 'feat: finish it', system_contains: 'pull request descriptions'},
            text: 'Finish it\n\nDone.',
          },
        ],
      },
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      commit: {committed: false},
      pullRequest: {status: 'created', title: 'Finish it'},
      pushed: true,
    })
    expect(bareRef(bare, 'refs/heads/feature/done')).toBe(repo.git('rev-parse', 'HEAD'))
  })

  it('with nothing to commit on main: nothing is pushed, exit 0', async () => {
    const {repo} = setUp()
    const result = await run(repo, ['--yes'])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Nothing to commit, and nothing to push.')
  })
})
