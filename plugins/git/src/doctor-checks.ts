import {type DoctorCheck, type HostContext, findExecutable} from '@hanzo-dev/sdk'

import {gitVersion} from './git-cli.js'
import {readRepository} from './repository.js'

type GitHost = Pick<HostContext, 'cwd' | 'env' | 'signal'>

/** git is required (every git workflow needs it); gh only for opening pull requests. */
export async function gitChecks(host: GitHost): Promise<DoctorCheck[]> {
  const context = {cwd: host.cwd, env: host.env, signal: host.signal}
  const [gitPath, ghPath] = await Promise.all([
    findExecutable('git', {cwd: host.cwd, env: host.env}),
    findExecutable('gh', {cwd: host.cwd, env: host.env}),
  ])
  const version = gitPath ? await gitVersion(context) : undefined
  const checks: DoctorCheck[] = []

  if (!gitPath || !version) {
    checks.push({
      detail: gitPath ? `${gitPath} does not run` : 'not found on PATH',
      hint: 'install git (https://git-scm.com/downloads, or your package manager: apt-get install git)',
      id: 'git.found',
      status: 'fail',
      title: 'git is installed',
    })
    checks.push({detail: 'needs git', id: 'git.repository', status: 'skip', title: 'inside a git repository'})
  } else {
    checks.push({detail: `${version} (${gitPath})`, id: 'git.found', status: 'ok', title: 'git is installed'})
    checks.push(await repositoryCheck(context))
  }

  checks.push(
    ghPath
      ? {detail: ghPath, id: 'git.gh', status: 'ok', title: 'GitHub CLI (gh) is installed'}
      : {
          detail: 'not found on PATH; needed to open pull requests (commit-push-pr)',
          hint: 'install gh (https://cli.github.com), then run: gh auth login',
          id: 'git.gh',
          status: 'warn',
          title: 'GitHub CLI (gh) is installed',
        },
  )
  return checks
}

async function repositoryCheck(context: Parameters<typeof readRepository>[0]): Promise<DoctorCheck> {
  const repo = await readRepository(context)
  if (!repo)
    return {
      detail: `${context.cwd} is not in a repository (git workflows are off here)`,
      id: 'git.repository',
      status: 'skip',
      title: 'inside a git repository',
    }
  const head = repo.branch ? `branch ${repo.branch}` : `detached HEAD${repo.detachedAt ? ` at ${repo.detachedAt}` : ''}`
  return {detail: `${repo.root} (${head})`, id: 'git.repository', status: 'ok', title: 'inside a git repository'}
}
