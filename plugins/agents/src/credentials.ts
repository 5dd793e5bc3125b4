import {stat} from 'node:fs/promises'
import {join} from 'node:path'
import {CREDENTIAL_ENV_VARS, isRecord, REDACTED} from '@hanzo-dev/sdk'

// Shared with the settings loader, which counts the same variables as the user's keys.
export {CREDENTIAL_ENV_VARS} from '@hanzo-dev/sdk'

export const CREDENTIALS_FILE = 'credentials.json'
/** The user settings file, next to the credentials file; the only settings file that may hold credentials. */
export const USER_SETTINGS_FILE = 'settings.json'

export interface CredentialSource {
  kind: 'settings' | 'environment' | 'file'
  /** The key path, variable or file that holds a credential; never the credential. */
  name: string
  /** A file's permission bits (`0o600` expected); undefined on Windows, which has no such bits. */
  mode?: number
}

export interface CredentialLookup {
  settings: Readonly<Record<string, unknown>>
  env: Readonly<Record<string, string | undefined>>
  configDir: string
}

/**
 * Where credentials are configured. Only presence is read: settings arrive redacted,
 * environment values are tested for emptiness, and the credentials file is stat-ed, not opened.
 */
export async function findCredentialSources(lookup: CredentialLookup): Promise<CredentialSource[]> {
  const sources: CredentialSource[] = []
  if (isSet(lookup.settings.api_key)) sources.push({kind: 'settings', name: 'api_key'})
  if (lookup.settings.oauth_credentials !== undefined && lookup.settings.oauth_credentials !== null) {
    sources.push({kind: 'settings', name: 'oauth_credentials'})
  }

  const providers = lookup.settings.providers
  if (isRecord(providers)) {
    for (const [name, provider] of Object.entries(providers)) {
      if (isRecord(provider) && isSet(provider.api_key)) sources.push({kind: 'settings', name: `providers.${name}.api_key`})
    }
  }

  for (const name of CREDENTIAL_ENV_VARS) if (isSet(lookup.env[name])) sources.push({kind: 'environment', name})
  const file = await credentialsFile(lookup.configDir)
  if (file) sources.push({kind: 'file', mode: file.mode, name: file.path})
  return sources
}

export async function credentialsFile(configDir: string, platform: NodeJS.Platform = process.platform): Promise<{path: string; mode?: number} | undefined> {
  return privateFile(join(configDir, CREDENTIALS_FILE), platform)
}

/**
 * The user settings file when it holds a credential, with its permission bits. The settings
 * arrive merged and redacted, but the loader honours credentials only from the user file or the
 * environment, and the environment sets only `api_key` (HANZO_API_KEY): anything else credential-
 * shaped that is set came from the user file.
 */
export async function userSettingsWithCredential(lookup: CredentialLookup, platform: NodeJS.Platform = process.platform): Promise<{path: string; mode?: number} | undefined> {
  const {env, settings} = lookup
  const fromFile =
    (isSet(settings.api_key) && !isSet(env.HANZO_API_KEY)) ||
    (settings.oauth_credentials !== undefined && settings.oauth_credentials !== null) ||
    Object.values(isRecord(settings.providers) ? settings.providers : {}).some((p) => isRecord(p) && (isSet(p.api_key) || p.oauth !== undefined)) ||
    Object.values(isRecord(settings.mcp_servers) ? settings.mcp_servers : {}).some((server) => isRecord(server) && holdsRedacted(server))
  return fromFile ? privateFile(join(lookup.configDir, USER_SETTINGS_FILE), platform) : undefined
}

/** An MCP server's secret `env` or `headers` entries reach plugins as {@link REDACTED}. */
function holdsRedacted(server: Record<string, unknown>): boolean {
  return [server.env, server.headers].some((map) => isRecord(map) && Object.values(map).includes(REDACTED))
}

async function privateFile(path: string, platform: NodeJS.Platform): Promise<{path: string; mode?: number} | undefined> {
  try {
    const info = await stat(path)
    if (!info.isFile()) return undefined
    return platform === 'win32' ? {path} : {mode: info.mode & 0o777, path}
  } catch {
    return undefined
  }
}

function isSet(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== ''
}
