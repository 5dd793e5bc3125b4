import {mkdir, rm} from 'node:fs/promises'
import {dirname, join, relative} from 'node:path'

import {
  canonicalize,
  findExecutable,
  gitIndirection,
  type GitIndirection,
  globalGitConfig,
  isInside,
  runCommand,
} from '@hanzo-dev/sdk'

import {exists, outermost, type ProtectedPath} from './mount-plan.js'

/**
 * What one command may not change, found just before it runs: every `.hanzo` and every git
 * indirection file (gitIndirection) under the writable part of the workspace, nested ones
 * included, and the user's own git config when the workspace holds it. bubblewrap can only bind
 * what exists, so what is missing is made first (an empty `.hanzo` at the root, an empty hooks
 * directory) or, where an empty file would change what git does (a commondir, an include
 * target, a nested `.hanzo`), removed after the command if it made one ({@link sweepAfter}).
 */
export interface CommandGuards {
  workspace: string
  /** Bound read-only. */
  protected: ProtectedPath[]
  /** Must not come into being. */
  absent: string[]
  /**
   * Writable besides the roots: the git directory of a workspace that is a linked worktree or a
   * submodule (`.git` is a file naming it), so git add and commit work there; its own
   * indirection files stay read-only like any other.
   */
  writable: string[]
  /** The `.hanzo` entries found, to tell a new one after the command. */
  hanzo: Set<string>
  /** Where they were looked for: the writable roots inside the workspace. */
  searched: string[]
}

export interface GuardContext {
  /** Canonical. */
  workspace: string
  /** Canonical and existing. */
  writable: string[]
  env: Readonly<Record<string, string | undefined>>
  homedir: string
}

const HANZO = '.hanzo'
const FIND_TIMEOUT_MS = 60_000

export async function commandGuards(context: GuardContext): Promise<CommandGuards> {
  const {workspace} = context
  const searched = context.writable.filter((w) => isInside(workspace, w))
  const canWrite = (path: string) => context.writable.some((w) => isInside(w, path))
  if (canWrite(workspace) && !(await exists(join(workspace, HANZO)))) await mkdir(join(workspace, HANZO), {mode: 0o755})
  const entries = (await Promise.all(searched.map((root) => findEntries(root, context.env)))).flat()
  const guards: CommandGuards = {absent: [], hanzo: new Set(), protected: [], searched, workspace, writable: []}
  const guard = (path: string, why: string) => guards.protected.push({path, why})
  for (const entry of entries.filter((e) => e.endsWith(`/${HANZO}`))) {
    guards.hanzo.add(entry)
    guard(await canonicalize(entry), "it holds a project's hanzo-dev settings")
  }

  const found: GitIndirection[] = []
  for (const entry of entries.filter((e) => e.endsWith('/.git'))) {
    const git = await gitIndirection(entry, {env: context.env})
    found.push(git)
    const own = dirname(entry) === workspace
    if (own && canWrite(workspace))
      guards.writable.push(...outermost(git.gitDirs.filter((d) => !isInside(workspace, d))))
  }

  found.push(await globalGitConfig({env: context.env, homedir: context.homedir}))
  const reach = (path: string) => canWrite(path) || guards.writable.some((w) => isInside(w, path))
  for (const git of found) {
    for (const path of git.existing)
      guard(path, 'git reads it: a config can name programs git runs (core.fsmonitor, core.hooksPath)')
    for (const path of git.hooks) guard(path, 'git runs what is there')
    for (const path of git.missingHooks.filter(reach)) {
      if (!(await exists(dirname(path)))) continue
      await mkdir(path, {mode: 0o755})
      guard(path, 'git runs what is there')
    }

    guards.absent.push(...git.absent.filter(reach))
  }

  return guards
}

/**
 * After the command (its processes are gone: the pid namespace ends with it): removes what it
 * made where git or hanzo-dev would read it, and returns those paths, relative to the workspace
 * where they are in it.
 */
export async function sweepAfter(
  guards: CommandGuards,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const made: string[] = []
  for (const path of guards.absent) if (await exists(path)) made.push(path)
  const entries = (await Promise.all(guards.searched.map((root) => findEntries(root, env)))).flat()
  made.push(...entries.filter((e) => e.endsWith(`/${HANZO}`) && !guards.hanzo.has(e)))
  for (const path of made) await rm(path, {force: true, recursive: true})
  return made.map((path) => (isInside(guards.workspace, path) ? relative(guards.workspace, path) : path))
}

/**
 * Every `.git` and `.hanzo` under `root`, without descending into them or following links. A
 * directory find cannot read is one the command, running as the same user, cannot write either.
 */
async function findEntries(root: string, env: Readonly<Record<string, string | undefined>>): Promise<string[]> {
  const find = await findExecutable('find', {cwd: root, env})
  if (!find)
    throw new Error('find(1) is not on PATH: the .hanzo and .git directories of the workspace cannot be listed')
  const result = await runCommand(find, [root, '(', '-name', '.git', '-o', '-name', HANZO, ')', '-prune', '-print0'], {
    cwd: root,
    env,
    timeoutMs: FIND_TIMEOUT_MS,
  })
  if (!result.ok && result.exitCode !== 1)
    throw new Error(`cannot list the .hanzo and .git directories of ${root}: ${result.failure}`)
  return result.stdout.split('\0').filter((entry) => entry !== '')
}
