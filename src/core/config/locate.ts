import {dirname, join} from 'node:path'

import {resolvePaths} from '../paths.js'
import {ConfigError} from './config-error.js'
import type {ConfigFile, ConfigIO, LoadConfigOptions} from './types.js'

export const PROJECT_DIR = '.hanzo'
export const PROJECT_FILE = 'settings.json'
export const LOCAL_FILE = 'settings.local.json'

export interface ConfigLocations {
  projectRoot: string
  /** The git repository around the project, when there is one. */
  gitRoot?: string
  files: ConfigFile[]
}

/**
 * Where the three settings files are. The project is the nearest directory, from `cwd` up to
 * the git repository's root, that has a `.hanzo/` directory; else the repository's root.
 * Outside a repository only `cwd` itself is considered: a `.hanzo/` in some parent directory
 * of an unrelated folder (a home directory, /tmp) is not a project.
 */
export async function locateConfigFiles(options: LoadConfigOptions & {io: ConfigIO}): Promise<ConfigLocations> {
  const {io} = options
  const gitRoot = await findGitRoot(options.cwd, io)
  let projectRoot = options.projectRoot
  if (projectRoot === undefined) {
    projectRoot = gitRoot ?? options.cwd
    for (let dir = options.cwd; gitRoot !== undefined; dir = dirname(dir)) {
      if ((await io.kind(join(dir, PROJECT_DIR))) === 'directory') {
        projectRoot = dir
        break
      }

      if (dir === gitRoot) break
    }
  }

  const paths: Array<[ConfigFile['tier'], string]> = [
    ['user', resolvePaths(options.env, options.homedir).userSettings],
    ['project', join(projectRoot, PROJECT_DIR, PROJECT_FILE)],
    ['local', join(projectRoot, PROJECT_DIR, LOCAL_FILE)],
  ]
  const files = await Promise.all(
    paths.map(async ([tier, path]) => ({exists: await isSettingsFile(path, io), path, tier})),
  )
  return {files, gitRoot, projectRoot}
}

/**
 * Whether there is a settings file at `path`. Anything but a regular file (after symlinks) is an
 * error: a repository could otherwise point `.hanzo/settings.json` at `/dev/stdin` (every command
 * hangs) or `/dev/zero` (every command runs out of memory).
 */
async function isSettingsFile(path: string, io: ConfigIO): Promise<boolean> {
  const kind = await io.kind(path)
  if (kind === 'missing') return false
  if (kind === 'file') return true
  throw new ConfigError(
    `Cannot use settings file ${path}: it is not a regular file (found a ${kind === 'directory' ? 'directory' : 'device, pipe or socket'})`,
    path,
    undefined,
    {
      hint: `replace it with a JSON file, or remove it`,
    },
  )
}

async function findGitRoot(cwd: string, io: ConfigIO): Promise<string | undefined> {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if ((await io.kind(join(dir, '.git'))) !== 'missing') return dir
    if (dirname(dir) === dir) return undefined
  }
}
