import {lstat, readdir, readFile} from 'node:fs/promises'
import {dirname, join, resolve} from 'node:path'

import {canonicalize} from './canonical-path.js'
import {runCommand} from './run-command.js'
import {findExecutable} from './which.js'

/**
 * What git reads besides the work tree, and so what decides which programs run the next time
 * anyone runs git there (`git status` starts `core.fsmonitor`, `git commit` a hook): whoever can
 * write one of these runs code as the user, outside any sandbox. The sandbox keeps them
 * read-only for the commands the agent runs and the permission rules deny them to its file tools.
 */
export interface GitIndirection {
  /** Existing files git reads, canonical: configs and what they include, commondir, an fsmonitor program, a `.git` file. */
  existing: string[]
  /** Existing hooks directories (`hooks/`, core.hooksPath), canonical: git runs what is in them. */
  hooks: string[]
  /** Where git would read a file that is not there yet (a commondir, a config.worktree, an include target): making one redirects git. */
  absent: string[]
  /** Hooks directories git would use that do not exist yet. */
  missingHooks: string[]
  /** The git directories read: the repository's, a linked worktree's own and common one, each submodule's. */
  gitDirs: string[]
}

export interface GitIndirectionOptions {
  /** Whose PATH finds git (which reads the configs) and whose HOME a `~/` in an include means. */
  env: Readonly<Record<string, string | undefined>>
}

/** git's own limit on nested includes. */
const MAX_INCLUDE_DEPTH = 10
const GIT_TIMEOUT_MS = 5000
/** The config keys that name a file or directory git reads or runs from (a POSIX regular expression: git matches it). */
const PATH_KEYS = /^(include(if\..*)?\.path|core\.hookspath|core\.fsmonitor)$/
const BOOLEAN = /^(?:true|false|yes|no|on|off|1|0|)$/i

/**
 * The git indirection of one `.git` entry (`dotGit`: a directory, or the file a linked worktree
 * or a submodule has, `gitdir: ...`), followed through commondir, submodules (`modules/`) and
 * linked worktrees (`worktrees/`). Nothing when there is no `.git` there.
 */
export async function gitIndirection(dotGit: string, options: GitIndirectionOptions): Promise<GitIndirection> {
  const found: GitIndirection = {absent: [], existing: [], gitDirs: [], hooks: [], missingHooks: []}
  const entry = await lstat(dotGit).catch(() => undefined)
  if (!entry) return found
  const reader = await configReader(dotGit, options)
  let gitDir = dotGit
  if (entry.isFile()) {
    found.existing.push(await canonicalize(dotGit))
    const target = /^gitdir:\s*(.+?)\s*$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''))?.[1]
    if (target === undefined) return found
    gitDir = resolve(dirname(dotGit), target)
  }

  await walkGitDir(await canonicalize(gitDir), found, reader, new Set())
  return found
}

/** The `.git` git uses for `dir`: the nearest one in it or above it; undefined outside a repository. */
export async function nearestDotGit(dir: string): Promise<string | undefined> {
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (await exists(join(at, '.git'))) return join(at, '.git')
    if (dirname(at) === at) return undefined
  }
}

/** The user's own git config files (`~/.gitconfig`, `$XDG_CONFIG_HOME/git/config`) and what they include. */
export async function globalGitConfig(options: GitIndirectionOptions & {homedir: string}): Promise<GitIndirection> {
  const found: GitIndirection = {absent: [], existing: [], gitDirs: [], hooks: [], missingHooks: []}
  const xdg = options.env.XDG_CONFIG_HOME?.startsWith('/')
    ? options.env.XDG_CONFIG_HOME
    : join(options.homedir, '.config')
  const reader = await configReader(join(options.homedir, '.gitconfig'), options)
  for (const file of [join(options.homedir, '.gitconfig'), join(xdg, 'git', 'config')])
    await readConfig(file, found, reader, 0)
  return found
}

interface ConfigReader {
  git?: string
  home?: string
  env: GitIndirectionOptions['env']
  /** Where git runs hooks and fsmonitor from, which a relative core.hooksPath is relative to. */
  worktree: string
}

async function configReader(near: string, options: GitIndirectionOptions): Promise<ConfigReader> {
  const worktree = dirname(near)
  return {
    env: options.env,
    git: await findExecutable('git', {cwd: worktree, env: options.env}),
    home: options.env.HOME,
    worktree,
  }
}

async function walkGitDir(
  gitDir: string,
  found: GitIndirection,
  reader: ConfigReader,
  seen: Set<string>,
): Promise<void> {
  if (seen.has(gitDir) || !(await isDirectory(gitDir))) return
  seen.add(gitDir)
  found.gitDirs.push(gitDir)
  for (const name of ['config', 'config.worktree']) await readConfig(join(gitDir, name), found, reader, 0)
  const commondir = join(gitDir, 'commondir')
  const common = await readFile(commondir, 'utf8').catch(() => undefined)
  if (common === undefined) found.absent.push(commondir)
  else found.existing.push(commondir)
  await hooksDir(join(gitDir, 'hooks'), found)
  if (common !== undefined && common.trim() !== '')
    await walkGitDir(await canonicalize(resolve(gitDir, common.trim())), found, reader, seen)
  for (const worktree of await subdirectories(join(gitDir, 'worktrees')))
    await walkGitDir(worktree, found, reader, seen)
  await walkModules(join(gitDir, 'modules'), found, reader, seen)
}

/** A submodule's git directory is `modules/<name>`, and a name may hold slashes: a directory with HEAD is one. */
async function walkModules(dir: string, found: GitIndirection, reader: ConfigReader, seen: Set<string>): Promise<void> {
  for (const sub of await subdirectories(dir)) {
    if (await exists(join(sub, 'HEAD'))) await walkGitDir(sub, found, reader, seen)
    else await walkModules(sub, found, reader, seen)
  }
}

/** One config file: itself, then the files it includes and the hooks directory or fsmonitor program it names. */
async function readConfig(named: string, found: GitIndirection, reader: ConfigReader, depth: number): Promise<void> {
  const file = await canonicalize(named)
  const entry = await lstat(file).catch(() => undefined)
  if (!entry) {
    found.absent.push(file)
    return
  }

  found.existing.push(file)
  if (!reader.git || depth >= MAX_INCLUDE_DEPTH || !entry.isFile()) return
  // --file reads the one file without following its includes, so each level is read here.
  const result = await runCommand(reader.git, ['config', '--file', file, '--null', '--get-regexp', PATH_KEYS.source], {
    cwd: dirname(file),
    env: reader.env,
    timeoutMs: GIT_TIMEOUT_MS,
  })
  for (const record of result.stdout.split('\0')) {
    const newline = record.indexOf('\n')
    if (newline === -1) continue
    const key = record.slice(0, newline)
    const value = record.slice(newline + 1)
    if (key === 'core.fsmonitor' && BOOLEAN.test(value)) continue
    const named = value.startsWith('~/') && reader.home ? join(reader.home, value.slice(2)) : value
    if (key.startsWith('include')) {
      await readConfig(resolve(dirname(file), named), found, reader, depth + 1)
      continue
    }

    // Relative to the work tree, where git runs them; a submodule's config is read without knowing its work tree, so also relative to the file.
    const [primary, ...others] = new Set([resolve(reader.worktree, named), resolve(dirname(file), named)])
    const path = await canonicalize(primary)
    if (key === 'core.hookspath') await hooksDir(path, found)
    else if (await exists(path)) found.existing.push(path)
    else found.absent.push(path)
    for (const other of others) if (await exists(other)) found.existing.push(await canonicalize(other))
  }
}

async function hooksDir(path: string, found: GitIndirection): Promise<void> {
  if (await exists(path)) found.hooks.push(path)
  else found.missingHooks.push(path)
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  )
}

async function subdirectories(dir: string): Promise<string[]> {
  const entries = await readdir(dir, {withFileTypes: true}).catch(() => [])
  return entries.filter((e) => e.isDirectory()).map((e) => join(dir, e.name))
}

async function isDirectory(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isDirectory() ?? false
}
