// STUB — replaced by the config work (owner: config helper). Signatures are the contract.
import {UserError} from '../errors.js'

export type Tier = 'user' | 'project' | 'local'

export interface HanzoConfig {
  model: string
  [key: string]: unknown
}

export interface ConfigFile {
  tier: Tier
  path: string
  exists: boolean
}

export interface ConfigWarning {
  file: string
  keyPath: string
  message: string
}

export interface LoadConfigOptions {
  cwd: string
  env: Readonly<Record<string, string | undefined>>
  homedir: string
  projectRoot?: string
}

export interface LoadedConfig {
  config: HanzoConfig
  projectRoot: string
  files: ConfigFile[]
  origins: Record<string, string>
  warnings: ConfigWarning[]
}

export class ConfigError extends UserError {
  constructor(
    message: string,
    readonly file: string,
    readonly keyPath?: string,
  ) {
    super(message)
  }
}

export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  return {config: {model: 'claude-sonnet-4-20250514'}, files: [], origins: {}, projectRoot: options.cwd, warnings: []}
}

export function redactConfig(config: HanzoConfig): Record<string, unknown> {
  return {...config, api_key: config.api_key ? '[redacted]' : undefined}
}
