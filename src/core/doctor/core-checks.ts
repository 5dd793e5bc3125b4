import type {DoctorCheck} from '@hanzo-dev/sdk'

import type {ConfigFile} from '../config/index.js'

export const MIN_NODE = [20, 17] as const

export interface CoreCheckInput {
  nodeVersion: string
  /** The settings files found, or the error that stopped loading them. */
  configFiles: ConfigFile[]
  configError?: {message: string; file?: string}
  /** The user settings file, when it holds a credential; `mode`: its permission bits (none on Windows). */
  credentialFile?: {path: string; mode?: number}
  /** Each data directory and the error met when writing there (null: writable). */
  writable: {dir: string; label: string; error: string | null}[]
}

export function coreChecks(input: CoreCheckInput): DoctorCheck[] {
  const checks: DoctorCheck[] = [nodeCheck(input.nodeVersion)]

  if (input.configError) {
    checks.push({
      detail: input.configError.message,
      hint: 'fix the file, or see the settings reference: hanzo-dev config --help',
      id: 'core.config',
      status: 'fail',
      title: 'settings files are valid',
    })
  } else {
    const present = input.configFiles.filter((f) => f.exists)
    checks.push({
      detail:
        present.length > 0
          ? present.map((f) => `${f.tier}: ${f.path}`).join(', ')
          : 'no settings files (defaults in use)',
      id: 'core.config',
      status: 'ok',
      title: 'settings files are valid',
    })
  }

  const exposed = input.credentialFile
  if (exposed?.mode !== undefined && (exposed.mode & 0o077) !== 0) {
    checks.push({
      detail: `${exposed.path} holds credentials and is open to other users (mode ${exposed.mode.toString(8).padStart(4, '0')})`,
      hint: `chmod 600 ${exposed.path}`,
      id: 'core.config.private',
      status: 'warn',
      title: 'user settings file with credentials is private',
    })
  }

  for (const w of input.writable) {
    checks.push({
      detail: w.error ? `${w.dir}: ${w.error}` : w.dir,
      hint: w.error ? `make ${w.dir} writable, or point XDG_CONFIG_HOME / XDG_DATA_HOME elsewhere` : undefined,
      id: `core.writable.${w.label}`,
      status: w.error ? 'fail' : 'ok',
      title: `${w.label} directory is writable`,
    })
  }

  return checks
}

function nodeCheck(version: string): DoctorCheck {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number)
  const ok = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1])
  return {
    detail: version,
    hint: ok ? undefined : `hanzo-dev needs Node.js >= ${MIN_NODE.join('.')}`,
    id: 'core.node',
    status: ok ? 'ok' : 'fail',
    title: 'Node.js version is supported',
  }
}
