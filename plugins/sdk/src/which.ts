import {constants} from 'node:fs'
import {access, stat} from 'node:fs/promises'
import {delimiter, isAbsolute, resolve} from 'node:path'

export interface FindExecutableOptions {
  /** The environment whose PATH (and PATHEXT on Windows) is searched: the host's, not the process's. */
  env: Readonly<Record<string, string | undefined>>
  /** Where a relative path such as `./scripts/check.sh` is resolved. */
  cwd: string
  platform?: NodeJS.Platform
}

/**
 * Where `command` would be found when run without a shell: a name is looked up on PATH, a
 * path (anything with a separator) is taken relative to `cwd`. Returns the absolute path of
 * an executable regular file, or undefined. Empty PATH entries are ignored rather than read
 * as "the current directory", so a project cannot plant a binary that shadows a real one.
 */
export async function findExecutable(command: string, options: FindExecutableOptions): Promise<string | undefined> {
  const platform = options.platform ?? process.platform
  if (command === '') return undefined

  const separators = platform === 'win32' ? /[\\/]/ : /\//
  if (separators.test(command)) {
    const path = isAbsolute(command) ? command : resolve(options.cwd, command)
    return firstExecutable(candidates(path, options.env, platform), platform)
  }

  const dirs = (pathValue(options.env, platform) ?? '')
    .split(platform === 'win32' ? ';' : delimiter)
    .filter((d) => d !== '')
  for (const dir of dirs) {
    // A relative PATH entry is relative to where the program will run, as for execvp.
    const found = await firstExecutable(candidates(resolve(options.cwd, dir, command), options.env, platform), platform)
    if (found) return found
  }

  return undefined
}

/** Windows keeps PATH under any casing (`Path` is common); POSIX is case-sensitive. */
function pathValue(env: FindExecutableOptions['env'], platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return env.PATH
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH')
  return key === undefined ? undefined : env[key]
}

function candidates(path: string, env: FindExecutableOptions['env'], platform: NodeJS.Platform): string[] {
  if (platform !== 'win32') return [path]
  const extensions = (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '')
  return [path, ...extensions.map((e) => path + e.toLowerCase())]
}

async function firstExecutable(paths: string[], platform: NodeJS.Platform): Promise<string | undefined> {
  for (const path of paths) {
    try {
      if (!(await stat(path)).isFile()) continue
      // Windows has no execute bit: existence is what counts there.
      if (platform !== 'win32') await access(path, constants.X_OK)
      return path
    } catch {
      continue
    }
  }

  return undefined
}
