import {type GitContext, GitError, git, gitOutput} from './git-cli.js'
import {emptyTree, openRepository} from './repository.js'
import {describeChange, readChange} from './staged-change.js'

/** What one tool call may return: enough to read, never a flood of the model's context. */
export const MAX_TOOL_OUTPUT = 30_000

/**
 * Nothing a repository's config names runs while the agent looks at it: no fsmonitor program (git
 * status and diff would start it), no external diff or textconv filter (readChange passes
 * --no-ext-diff --no-textconv).
 */
const UNTRUSTED_CONFIG = ['core.fsmonitor=false', 'core.untrackedCache=false']

export async function runGitTool(
  tool: 'status' | 'diff' | 'log',
  input: Record<string, unknown>,
  context: GitContext,
): Promise<string> {
  const repo = await openRepository({...context, config: UNTRUSTED_CONFIG})
  // Paths the model gives are relative to the workspace, which may be below the top level.
  const at = {...repo.context, config: UNTRUSTED_CONFIG, cwd: context.cwd}
  const path = optionalString(input.path, 'path')
  if (tool === 'status')
    return cap(
      (await gitOutput(['status', '--short', '--branch', '--untracked-files=all'], at, 'git status failed')).trimEnd(),
    )

  if (tool === 'diff') {
    const base = revision(input.base, 'base') ?? (repo.hasHead ? 'HEAD' : await emptyTree(repo))
    const change = await readChange(
      {...repo, context: at},
      input.staged === true ? ['--cached', base] : [base],
      path ? [path] : [],
    )
    return cap(change.files.length === 0 ? 'No changes.' : describeChange(change))
  }

  if (!repo.hasHead) return 'No commits yet.'
  const count = typeof input.max_count === 'number' ? Math.min(Math.max(1, Math.floor(input.max_count)), 200) : 20
  const ref = revision(input.ref, 'ref') ?? 'HEAD'
  const log = await git(
    ['log', `--max-count=${count}`, '--date=short', '--format=%h %ad %an: %s', ref, '--', ...(path ? [path] : [])],
    at,
    {maxChars: MAX_TOOL_OUTPUT * 2},
  )
  if (!log.ok && !log.truncated) throw new GitError(`git log failed: ${log.stderr.trim()}`)
  return cap(log.stdout.trim() || 'No commits.')
}

function cap(text: string): string {
  return text.length <= MAX_TOOL_OUTPUT
    ? text
    : `${text.slice(0, MAX_TOOL_OUTPUT)}\n[output cut at ${MAX_TOOL_OUTPUT} characters]`
}

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value === '') throw new GitError(`${name} must be a non-empty string`)
  return value
}

/** A revision the model names; one that starts with - would be read as an option. */
function revision(value: unknown, name: string): string | undefined {
  const rev = optionalString(value, name)
  if (rev?.startsWith('-')) throw new GitError(`${name} must name a commit, branch or tag (it may not start with -)`)
  return rev
}
