import {execFile} from 'node:child_process'
import {arch, release, type} from 'node:os'
import {basename} from 'node:path'
import {promisify} from 'node:util'

import type {GitSnapshot, SessionEnvironment} from '../core/agent/system-prompt.js'

const run = promisify(execFile)
/** A status longer than this tells the model nothing more than "many files changed". */
const STATUS_LINES = 20
/** A repository on a slow disk or network mount must not hold the session's start for long. */
const GIT_TIMEOUT_MS = 5000

/** What the system prompt says of the machine and repository, read once as the session opens. */
export async function readSessionEnvironment(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<SessionEnvironment> {
  const git = await gitSnapshot(cwd, env)
  return {
    cwd,
    date: new Date().toISOString().slice(0, 10),
    os: `${type()} ${release()} (${arch()})`,
    shell: process.platform === 'win32' ? basename(env.ComSpec ?? 'cmd.exe') : basename(env.SHELL || '/bin/sh'),
    ...(git ? {git} : {}),
  }
}

/** Undefined outside a repository, or when git is not installed: the prompt then has no git section. */
async function gitSnapshot(
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<GitSnapshot | undefined> {
  const git = (...args: string[]) =>
    run('git', ['--no-optional-locks', ...args], {
      cwd,
      env: {...env},
      maxBuffer: 1024 * 1024,
      timeout: GIT_TIMEOUT_MS,
    }).then(
      ({stdout}) => stdout,
      () => undefined,
    )
  const root = (await git('rev-parse', '--show-toplevel'))?.trim()
  if (!root) return undefined
  // Paths relative to the root, as the section says, not to cwd (`../src/a.ts`).
  const [branch, status] = await Promise.all([
    git('symbolic-ref', '--short', '-q', 'HEAD'),
    git('-C', root, 'status', '--short', '--untracked-files=normal'),
  ])
  const detached = branch?.trim() ? undefined : (await git('rev-parse', '--short', 'HEAD'))?.trim()
  const lines = (status ?? '').split('\n').filter(Boolean)
  return {
    branch: branch?.trim() || (detached ? `(detached HEAD at ${detached})` : '(no commits yet)'),
    more: Math.max(0, lines.length - STATUS_LINES),
    root,
    status: lines.slice(0, STATUS_LINES),
  }
}
