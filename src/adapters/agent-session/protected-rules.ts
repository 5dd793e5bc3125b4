import {realpath} from 'node:fs/promises'
import {homedir} from 'node:os'
import {join} from 'node:path'
import {canonicalEntry, canonicalize, gitIndirection, globalGitConfig, nearestDotGit} from '@hanzo-dev/sdk'

import {trustStorePath} from '../trust-store.js'
import {LOCAL_FILE, PROJECT_DIR, PROJECT_FILE} from '../../core/config/locate.js'
import {resolvePaths} from '../../core/paths.js'
import {protectedPathRules, type ProtectedRule} from '../../core/permissions/index.js'

/**
 * The deny rules a session adds to the shipped ones (protected-paths.ts), found where they are
 * now: the files that configure hanzo-dev outside the project (user settings, credentials, the
 * trust store), which matter when the workspace holds them or a command names them; where the
 * project's `.hanzo` really is (a symlink to `conf/` makes `conf/settings.json` the project
 * settings); and what git reads to decide what it runs, followed through a linked worktree,
 * submodules and includes (gitIndirection), the user's own git config included.
 */
export async function protectedRules(
  cwd: string,
  projectRoot: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<ProtectedRule[]> {
  const home = homedir()
  const paths = resolvePaths(env, home)
  const own = [paths.userSettings, paths.credentials, `${paths.credentials}.lock`, trustStorePath(paths.dataDir)]
  const hanzo = join(projectRoot, PROJECT_DIR)
  const project = [hanzo, join(hanzo, PROJECT_FILE), join(hanzo, LOCAL_FILE)]
  const dotGit = await nearestDotGit(cwd)
  const git = await Promise.all([
    dotGit ? gitIndirection(dotGit, {env}) : undefined,
    globalGitConfig({env, homedir: home}),
  ])
  const found = git.filter((g) => g !== undefined)
  return protectedPathRules({
    protectedDirs: found.flatMap((g) => [...g.hooks, ...g.missingHooks]),
    protectedFiles: [
      ...(await Promise.all(own.map((file) => canonicalEntry(file)))),
      ...(await Promise.all(project.map((path) => canonicalize(path)))),
      ...found.flatMap((g) => [...g.existing, ...g.absent]),
    ],
    workspaceRoot: await realpath(cwd),
  })
}
