import {isAbsolute, relative, resolve} from 'node:path'
import {runCommand} from '@hanzo-dev/sdk'

/** What changed in the workspace: what `auto`'s reviewer gets and what its end reports. */
export interface ChangeSet {
  /** Relative to the workspace, sorted. */
  files: string[]
  /** The working tree's diff against HEAD (new files included) in git; undefined outside git. */
  diff?: string
  /** True when the diff was cut to {@link MAX_DIFF_CHARS}. */
  truncated?: boolean
}

/** A reviewer's context has room for a large diff, not an unbounded one. */
export const MAX_DIFF_CHARS = 100_000
const GIT_TIMEOUT_MS = 10_000
/** Nothing the repository configures runs or rewrites the output: no fsmonitor, external diff or textconv. */
const SAFE = ['-c', 'core.fsmonitor=false', '-c', 'core.quotepath=false']
const DIFF = ['--no-ext-diff', '--no-textconv', '--no-color']

/** In git, the working tree against HEAD; elsewhere the files the agent wrote (`written`, as its tools reported them). */
export async function workspaceChanges(
  cwd: string,
  written: readonly string[],
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<ChangeSet> {
  const git = (args: string[]) => runCommand('git', [...SAFE, ...args], {cwd, env, timeoutMs: GIT_TIMEOUT_MS})
  const inside = await git(['rev-parse', '--is-inside-work-tree'])
  if (!inside.ok || inside.stdout.trim() !== 'true')
    return {files: [...new Set(written.map((p) => workspacePath(cwd, p)))].sort()}
  const hasHead = (await git(['rev-parse', '--verify', '--quiet', 'HEAD'])).ok
  const status = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', '.'])
  const entries = status.stdout.split('\0').filter(Boolean)
  const untracked = entries.filter((e) => e.startsWith('?? ')).map((e) => e.slice(3))
  const files = changedPaths(entries)
  const tracked = hasHead
    ? (await git(['diff', ...DIFF, 'HEAD', '--', '.'])).stdout
    : (await git(['diff', ...DIFF, '--cached', '--', '.'])).stdout
  let diff = tracked
  for (const file of untracked) {
    if (diff.length >= MAX_DIFF_CHARS) break
    // Exit 1 means "they differ": the diff is on stdout all the same.
    diff += (await git(['diff', ...DIFF, '--no-index', '--', '/dev/null', file])).stdout
  }

  const truncated = diff.length > MAX_DIFF_CHARS
  return {
    diff: truncated ? `${diff.slice(0, MAX_DIFF_CHARS)}\n[diff truncated]` : diff,
    files,
    ...(truncated ? {truncated} : {}),
  }
}

/** `git status -z` entries -> paths; a rename's entry is followed by its old path, which is skipped. */
function changedPaths(entries: string[]): string[] {
  const files: string[] = []
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]
    files.push(entry.slice(3))
    if (/^[RC]/.test(entry)) i++
  }

  return [...new Set(files)].sort()
}

function workspacePath(cwd: string, path: string): string {
  return relative(cwd, isAbsolute(path) ? path : resolve(cwd, path)) || path
}
