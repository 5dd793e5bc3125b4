import {isAbsolute, join} from 'node:path'

export interface HanzoPaths {
  /** `$XDG_CONFIG_HOME/hanzo`: user settings and credentials (shared by Hanzo's tools). */
  configDir: string
  userSettings: string
  credentials: string
  /** `$XDG_DATA_HOME/hanzo-dev`: sessions, audit logs, installed plugins (oclif's dataDir). */
  dataDir: string
  /** `$XDG_CACHE_HOME/hanzo-dev`. */
  cacheDir: string
}

/** Where hanzo-dev keeps its files; XDG variables win, relative ones are ignored as the spec says. */
export function resolvePaths(env: Readonly<Record<string, string | undefined>>, homedir: string): HanzoPaths {
  const xdg = (name: string, fallback: string) => {
    const value = env[name]
    return value && isAbsolute(value) ? value : join(homedir, fallback)
  }

  const configDir = join(xdg('XDG_CONFIG_HOME', '.config'), 'hanzo')
  return {
    cacheDir: join(xdg('XDG_CACHE_HOME', '.cache'), 'hanzo-dev'),
    configDir,
    credentials: join(configDir, 'credentials.json'),
    dataDir: join(xdg('XDG_DATA_HOME', '.local/share'), 'hanzo-dev'),
    userSettings: join(configDir, 'settings.json'),
  }
}
