import {GitError, git, type GitResult} from './git-cli.js'
import {redactRemote} from './remote-url.js'
import type {Repository} from './repository.js'

export const REMOTE = 'origin'

/** The remote's URL as configured (not rewritten by `url.*.insteadOf`: the host the user named); a GitError when there is none. */
export async function remoteUrl(repo: Repository): Promise<string> {
  const configured = await git(['config', '--get', `remote.${REMOTE}.url`], repo.context)
  if (!configured.ok || !configured.stdout.trim()) {
    throw new GitError(`This repository has no remote named ${REMOTE}: there is nowhere to push`, {
      hint: `add one: git remote add ${REMOTE} URL (nothing was staged or committed)`,
    })
  }

  return configured.stdout.trim()
}

/**
 * `git push -u origin HEAD`. A rejection is a GitError saying why (non-fast-forward, credentials,
 * an unreachable remote) and that the commit is still there. Off a terminal git never waits for a
 * password nobody can type.
 */
export async function pushHead(repo: Repository, options: {interactive: boolean; sha: string}): Promise<void> {
  const env = options.interactive ? repo.context.env : {...repo.context.env, GIT_TERMINAL_PROMPT: '0'}
  const result = await git(['push', '-u', REMOTE, 'HEAD'], {...repo.context, env}, {inheritStdin: options.interactive})
  if (result.ok) return
  throw pushFailure(result, repo, options.sha)
}

function pushFailure(result: GitResult, repo: Repository, sha: string): GitError {
  const said = redactRemote(`${result.stdout}\n${result.stderr}`)
  const kept = `your commit ${sha.slice(0, 7)} is safe on ${repo.branch ?? 'HEAD'}`
  if (/\[rejected\]|non-fast-forward|fetch first|Updates were rejected/.test(said)) {
    return new GitError(
      `The push was rejected: ${REMOTE} has commits that ${repo.branch ?? 'this branch'} does not (non-fast-forward); ${kept}`,
      {
        hint: `bring them in first: git pull --rebase ${REMOTE} ${repo.branch ?? 'BRANCH'}, then run hanzo-dev commit-push-pr again`,
      },
    )
  }

  if (
    /Authentication failed|Permission denied|could not read (Username|Password)|terminal prompts disabled|403|401/i.test(
      said,
    )
  ) {
    return new GitError(`The push was refused: ${REMOTE} did not accept your credentials; ${kept}`, {
      hint: 'check your access to the remote (gh auth login, an SSH key, or a credential helper), then run hanzo-dev commit-push-pr again',
    })
  }

  const line =
    said
      .split('\n')
      .map((l) => l.trim())
      .find((l) => /^(fatal|error|remote):/.test(l)) ??
    said.trim().split('\n').at(-1) ??
    ''
  return new GitError(`The push to ${REMOTE} failed: ${line.replace(/^(fatal|error):\s*/, '')}; ${kept}`, {
    hint: 'fix what git reports, then run hanzo-dev commit-push-pr again',
  })
}
