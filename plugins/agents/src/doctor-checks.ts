import type {DoctorCheck, HostContext} from '@hanzo-dev/sdk'

import {type CredentialSource, findCredentialSources} from './credentials.js'

type AgentsHost = Pick<HostContext, 'configDir' | 'env' | 'settings'>

/** The agent needs a model and a way to pay for it; without either the agent commands cannot run, doctor still passes. */
export async function agentsChecks(host: AgentsHost): Promise<DoctorCheck[]> {
  const sources = await findCredentialSources(host)
  const checks = [modelCheck(host.settings), credentialsCheck(sources)]
  const file = sources.find((s) => s.kind === 'file')
  const credentialsExposed =
    file && exposedCheck(file.name, file.mode, 'agents.credentials.file', 'credentials file is private')
  if (credentialsExposed) checks.push(credentialsExposed)
  return checks
}

/** A warning when a file holding credentials is open to other users; `undefined` when it is not. */
function exposedCheck(path: string, mode: number | undefined, id: string, title: string): DoctorCheck | undefined {
  if (mode === undefined || (mode & 0o077) === 0) return undefined
  return {
    detail: `${path} is open to other users (mode ${mode.toString(8).padStart(4, '0')})`,
    hint: `chmod 600 ${path}`,
    id,
    status: 'warn',
    title,
  }
}

function modelCheck(settings: AgentsHost['settings']): DoctorCheck {
  const {model, provider} = settings
  if (typeof model !== 'string' || model.trim() === '') {
    return {
      detail: 'no model configured',
      hint: 'hanzo-dev config set model <model>  (or export HANZO_MODEL=...)',
      id: 'agents.model',
      status: 'warn',
      title: 'a model is configured',
    }
  }

  return {
    detail: typeof provider === 'string' && provider !== '' ? `${model} (provider ${provider})` : model,
    id: 'agents.model',
    status: 'ok',
    title: 'a model is configured',
  }
}

function credentialsCheck(sources: CredentialSource[]): DoctorCheck {
  const title = 'credentials are configured'
  if (sources.length === 0) {
    return {
      detail: 'no API key or login found',
      hint: 'run: hanzo-dev auth login  (or export HANZO_API_KEY=...)',
      id: 'agents.credentials',
      status: 'warn',
      title,
    }
  }

  return {detail: sources.map((s) => `${s.name} (${s.kind})`).join(', '), id: 'agents.credentials', status: 'ok', title}
}
