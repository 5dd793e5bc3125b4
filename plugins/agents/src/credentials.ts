import {stat} from 'node:fs/promises'
import {join} from 'node:path'
import {CREDENTIAL_ENV_VARS, isRecord} from '@hanzo-dev/sdk'

export const CREDENTIALS_FILE = 'credentials.json'

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
      if (isRecord(provider) && isSet(provider.api_key))
        sources.push({kind: 'settings', name: `providers.${name}.api_key`})
    }
  }

  for (const name of CREDENTIAL_ENV_VARS) if (isSet(lookup.env[name])) sources.push({kind: 'environment', name})
  const file = await credentialsFile(lookup.configDir)
  if (file) sources.push({kind: 'file', mode: file.mode, name: file.path})
  return sources
}

export async function credentialsFile(
  configDir: string,
  platform: NodeJS.Platform = process.platform,
): Promise<{path: string; mode?: number} | undefined> {
  return privateFile(join(configDir, CREDENTIALS_FILE), platform)
}

async function privateFile(
  path: string,
  platform: NodeJS.Platform,
): Promise<{path: string; mode?: number} | undefined> {
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
