import {join} from 'node:path'

import {CREDENTIAL_ENV_VARS} from '@hanzo-dev/sdk/settings'

import {resolvePaths} from '../paths.js'
import {ConfigError, syntaxError} from './config-error.js'
import {settingsFromEnv} from './env.js'
import {JsonSyntaxError} from './json-text.js'
import {isPlainObject, type JsonObject} from './key-path.js'
import {locateConfigFiles, PROJECT_DIR} from './locate.js'
import {mergeTiers} from './merge.js'
import {addProjectMcpJson} from './mcp-json.js'
import {guardRedirects} from './redirect-guard.js'
import {type CheckedTier, checkTier} from './tier-check.js'
import {
  AGENTS_DIR,
  applyProjectTrust,
  commandFileKey,
  COMMANDS_DIR,
  projectAgents,
  skillFileKey,
  SKILLS_DIR,
} from './trust.js'
import type {ConfigFile, ConfigIO, LoadConfigOptions, LoadedConfig} from './types.js'

/**
 * Loads the merged settings: user (`$XDG_CONFIG_HOME/hanzo/settings.json`) < project
 * (`.hanzo/settings.json`, and the servers of `.mcp.json`: mcp-json.ts) < local (`.hanzo/settings.local.json`) < environment (see env.ts).
 * A malformed file or a value of the wrong type is a {@link ConfigError}; everything ignored
 * (unknown keys, credentials outside the user tier, redirects, weakened denies) is a warning.
 * With `options.trust`, an untrusted project's hooks, MCP servers and allow rules are left out (trust.ts).
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const {io} = options
  const {files, projectRoot} = await locateConfigFiles({...options, io})
  const userFile = files[0].path
  const tiers: CheckedTier[] = []
  for (const file of files) {
    if (!file.exists) continue
    const document = await readSettingsFile(file, io)
    if (document === null) continue
    tiers.push(await checkTier(document.value, {file: file.path, tier: file.tier}, userFile))
  }
  await addProjectMcpJson(tiers, projectRoot, io)

  const user = tiers.find((t) => t.tier === 'user')?.data
  const redirectWarnings = tiers.some((t) => t.tier !== 'user')
    ? guardRedirects(tiers, await outsideKeySources(options, io, user))
    : []
  const projectFiles = async (dir: string) =>
    (await io.readTextFiles?.(join(projectRoot, PROJECT_DIR, dir), '.md')) ?? []
  const commands = (await projectFiles(COMMANDS_DIR)).map(({name, text}) => ({name: commandFileKey(name), text}))
  const skills = ((await io.readFileTree?.(join(projectRoot, PROJECT_DIR, SKILLS_DIR))) ?? []).flatMap(
    ({name, text}) => {
      const [skill, ...path] = name.split('/')
      // Only files in a skill's folder are a skill's: one loose in the skills directory is none.
      return path.length > 0 ? [{name: skillFileKey(skill, path.join('/')), text}] : []
    },
  )
  const agents = projectAgents([...(await projectFiles(AGENTS_DIR)), ...commands, ...skills])
  const {trust, warnings: trustWarnings} = await applyProjectTrust(tiers, projectRoot, options.trust, agents)
  const env = await settingsFromEnv(options.env)
  const merged = mergeTiers(tiers, env)
  return {
    config: merged.config,
    files,
    origins: merged.origins,
    permissionRules: merged.permissionRules,
    projectRoot,
    trust,
    warnings: [...tiers.flatMap((t) => t.warnings), ...redirectWarnings, ...trustWarnings, ...merged.warnings],
  }
}

/** One settings file, parsed; `null` when it vanished since it was found. */
export async function readSettingsFile(file: Pick<ConfigFile, 'path'>, io: ConfigIO): Promise<{value: unknown} | null> {
  try {
    return await io.readJson(file.path)
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw syntaxError(file.path, error)
    const code = (error as NodeJS.ErrnoException).code
    if (typeof code === 'string') throw new ConfigError(`Cannot read settings file ${file.path} (${code})`, file.path)
    throw error
  }
}

/**
 * The user's keys that live outside the settings files: key variables, the credentials file, and
 * the OS keychain when logins are kept there (`credentials.store` in the user tier, or
 * HANZO_CREDENTIALS_STORE). The keychain is not opened: that it is the store is enough, since a
 * login may land there at any time and a project must not have redirected it beforehand.
 */
async function outsideKeySources(
  options: LoadConfigOptions,
  io: ConfigIO,
  user: JsonObject | undefined,
): Promise<string[]> {
  const sources: string[] = CREDENTIAL_ENV_VARS.filter((name) => options.env[name])
  const {credentials} = resolvePaths(options.env, options.homedir)
  if ((await io.kind(credentials)) === 'file') sources.push(credentials)
  const store =
    options.env.HANZO_CREDENTIALS_STORE || (isPlainObject(user?.credentials) ? user.credentials.store : undefined)
  if (store === 'keychain')
    sources.push(
      options.env.HANZO_CREDENTIALS_STORE
        ? 'the keychain (HANZO_CREDENTIALS_STORE)'
        : 'the keychain (credentials.store)',
    )
  return sources
}
