import {execFileSync} from 'node:child_process'
import {chmodSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

import type {Sandbox} from '../../../test/helpers/cli.js'

/** What every git in these tests runs with: an identity, and nothing from the machine's or the user's git config. */
export function gitEnv(box: Sandbox): Record<string, string> {
  return {
    ...box.env,
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_AUTHOR_NAME: 'Test',
    GIT_CEILING_DIRECTORIES: box.home,
    GIT_COMMITTER_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test',
    GIT_CONFIG_NOSYSTEM: '1',
    PATH: process.env.PATH ?? '/usr/bin:/bin',
  }
}

export interface Repo {
  dir: string
  env: Record<string, string>
  git(...args: string[]): string
  write(path: string, content: string | Buffer): void
  /** The index as git lists it, intent-to-add and stage numbers included, plus what is staged. */
  indexState(): string
}

/** A repository with one commit on `main` (README.md), under the sandbox's home. */
export function makeRepo(box: Sandbox, name = 'repo', options: {commit?: boolean} = {}): Repo {
  const dir = join(box.home, name)
  mkdirSync(dir, {recursive: true})
  const env = gitEnv(box)
  const git = (...args: string[]) => execFileSync('git', args, {cwd: dir, encoding: 'utf8', env}).trim()
  const write = (path: string, content: string | Buffer) => {
    mkdirSync(join(dir, path, '..'), {recursive: true})
    writeFileSync(join(dir, path), content)
  }

  git('init', '--quiet', '--initial-branch=main')
  if (options.commit !== false) {
    write('README.md', 'hello\n')
    git('add', 'README.md')
    git('commit', '--quiet', '-m', 'first')
  }

  return {
    dir,
    env,
    git,
    indexState: () =>
      `${git('ls-files', '--stage')}\n--\n${git('diff', '--cached', '--name-status')}\n--\n${git('status', '--porcelain=v2')}`,
    write,
  }
}

/** A bare repository as `repo`'s origin, with main pushed. */
export function addOrigin(box: Sandbox, repo: Repo, name = 'origin.git'): string {
  const bare = join(box.home, name)
  execFileSync('git', ['init', '--quiet', '--bare', '--initial-branch=main', bare], {env: repo.env})
  repo.git('remote', 'add', 'origin', bare)
  repo.git('push', '--quiet', '-u', 'origin', 'main')
  return bare
}

/** An executable hook in `repo`. */
export function writeHook(repo: Repo, name: string, script: string): void {
  const path = join(repo.dir, '.git', 'hooks', name)
  writeFileSync(path, script)
  chmodSync(path, 0o755)
}
