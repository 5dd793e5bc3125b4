import {
  type AgentSession,
  makePaint,
  type SlashCommandContext,
  type SlashCommandDefinition,
  type SlashCommandResult,
} from '@hanzo-dev/sdk'

import {createBranch} from './branches.js'
import {type CommitResult, commitChanges} from './commit-flow.js'
import {GitError} from './git-cli.js'
import type {MessageWriter} from './model-session.js'
import {commitPushPr, type PrResult} from './pr-flow.js'
import {emptyTree, openRepository, type Repository} from './repository.js'
import {type ChangedFile, describeChange, readChange} from './staged-change.js'
import {stashChanges} from './stash.js'
import {addWorktree} from './worktree.js'

/** Files `/diff` lists in its message; the context holds them all. */
const LISTED_FILES = 10

/**
 * The git commands of the interactive prompt (HIP-301 §11), on the same workflows as the
 * commands: `/commit` is `hanzo-dev commit --yes` (the model writes the message, through a side
 * session of the chat's, and it is accepted: the user typed the command and sees the result).
 */
export function gitSlashCommands(): SlashCommandDefinition[] {
  return [
    command('branch', 'Create a branch from HEAD and switch to it', 'NAME', async (repo, {argv}) => {
      const name = required(argv, '/branch NAME')
      await createBranch(repo, name)
      return {message: `Switched to a new branch ${name}`}
    }),
    command(
      'commit',
      'Commit tracked changes (--all: new files too), the message by the model',
      '[--all]',
      async (repo, context) => {
        const notes: string[] = []
        const result = await commitChanges(repo, {...unattended(context, notes), amend: false, noVerify: false})
        return {message: [...notes, renderCommitted(result)].join('\n')}
      },
    ),
    command(
      'commit-push-pr',
      'Commit, push the branch and open a pull request',
      '[--all --draft]',
      async (repo, context) => {
        const notes: string[] = []
        const result = await commitPushPr(repo, {
          ...unattended(context, notes),
          draft: context.argv.includes('--draft'),
          noVerify: false,
        })
        return {message: [...notes, renderPr(result)].join('\n')}
      },
    ),
    command('worktree', 'Make a working tree for a new branch beside the repository', 'NAME', async (repo, {argv}) => {
      const made = await addWorktree(repo, required(argv, '/worktree NAME'))
      return {message: `Made a working tree for the new branch ${made.branch}: ${made.path}`}
    }),
    command(
      'diff',
      "Add the working tree's changes against HEAD to the next prompt",
      '[--staged]',
      async (repo, {argv}) => {
        const base = repo.hasHead ? 'HEAD' : await emptyTree(repo)
        const staged = argv.includes('--staged')
        const change = await readChange(repo, staged ? ['--cached', base] : [base])
        if (change.files.length === 0) return {message: staged ? 'Nothing staged.' : 'No changes against HEAD.'}
        const what = staged ? 'The staged changes' : "The working tree's changes against HEAD"
        return {
          context: `${what} (attached by the user with /diff):\n\n${describeChange(change)}`,
          message: [
            `${stat(change.files)}${change.truncated ? ' (the diff is cut: a large change)' : ''}; added as context for your next prompt:`,
            ...listed(change.files),
          ].join('\n'),
        }
      },
    ),
    command(
      'stash',
      'Stash the working tree and index changes (-u: new files too)',
      '[-u] [message]',
      async (repo, {argv}) => {
        const includeUntracked = argv.includes('-u')
        const words = argv.filter((word) => word !== '-u')
        const result = await stashChanges(repo, {
          includeUntracked,
          message: words.length > 0 ? words.join(' ') : undefined,
        })
        return {
          message: result.stashed
            ? `Stashed as stash@{0}: ${result.message} (git stash pop brings it back)`
            : 'Nothing to stash.',
        }
      },
    ),
  ]
}

function command(
  name: string,
  description: string,
  argsHint: string,
  work: (repo: Repository, context: SlashCommandContext) => Promise<SlashCommandResult>,
): SlashCommandDefinition {
  return {
    argsHint,
    description,
    name,
    async run(context) {
      try {
        return await work(await openRepository({cwd: context.cwd, env: process.env, signal: context.signal}), context)
      } catch (error) {
        // The prompt shows one message: the hint belongs on it, and what the hook said under it.
        if (error instanceof GitError && (error.hint || error.output)) {
          const said = error.output?.split('\n').map((line) => `  ${line}`) ?? []
          throw new Error([`${error.message}${error.hint ? ` (${error.hint})` : ''}`, ...said].join('\n'))
        }

        throw error
      }
    },
  }
}

/** The options a commit typed at the prompt runs with: no question asked, the message written by the chat's model. */
function unattended(context: SlashCommandContext, notes: string[]) {
  const {session} = context
  if (!session) throw new GitError('This command needs the agent session of the interactive prompt')
  const all = context.argv.includes('--all') || context.argv.includes('-a')
  return {
    all,
    interactive: false,
    note: (message: string) => void notes.push(message),
    openWriter: sideWriter(session),
    paint: makePaint(process.stdout),
    yes: true,
  }
}

/** A side session of the chat's: its model and settings, no tools, nothing in its conversation or saved session. */
function sideWriter(session: AgentSession): (systemPrompt: string) => Promise<MessageWriter> {
  return async (systemPrompt) => {
    const child = session.child({record: false, systemPrompt, tools: 'none'})
    return {close: () => child.close(), thinking: (work) => work(child)}
  }
}

function required(argv: readonly string[], usage: string): string {
  if (argv.length !== 1) throw new GitError(`Usage: ${usage}`)
  return argv[0]
}

function renderCommitted(result: CommitResult): string {
  if (!result.committed)
    return `Nothing to commit${result.untracked > 0 ? ` (${result.untracked} new file(s) not tracked: /commit --all adds them)` : ''}.`
  return `Committed [${result.branch ?? 'detached HEAD'} ${result.sha.slice(0, 7)}] ${result.message}\n${result.files.length} file(s) changed`
}

function renderPr(result: PrResult): string {
  const lines = result.commit.committed ? [renderCommitted(result.commit)] : []
  if (!result.pushed)
    return [...lines, ...(result.commit.committed ? [] : ['Nothing to commit, and nothing to push.'])].join('\n')
  lines.push(`Pushed ${result.branch} to ${result.remote}`)
  const pr = result.pullRequest
  const compare = pr.compareUrl ? `; open it in your browser: ${pr.compareUrl}` : ''
  if (pr.status === 'created' || pr.status === 'exists')
    lines.push(`Pull request${pr.status === 'exists' ? ' (open already)' : ''}: ${pr.url ?? '(gh printed no URL)'}`)
  else
    lines.push(`No pull request: ${pr.reason ?? (pr.status === 'no-gh' ? 'gh is not installed' : pr.status)}${compare}`)
  return lines.join('\n')
}

function stat(files: readonly ChangedFile[]): string {
  const added = files.reduce((sum, file) => sum + (file.added ?? 0), 0)
  const deleted = files.reduce((sum, file) => sum + (file.deleted ?? 0), 0)
  return `${files.length} file(s) changed, +${added} -${deleted}`
}

function listed(files: readonly ChangedFile[]): string[] {
  const lines = files
    .slice(0, LISTED_FILES)
    .map(
      (file) =>
        `  ${file.status} ${file.path} ${file.binary ? '(binary)' : `+${file.added ?? 0} -${file.deleted ?? 0}`}`,
    )
  return files.length > LISTED_FILES ? [...lines, `  ... and ${files.length - LISTED_FILES} more`] : lines
}
