import type {DoctorCheck} from '@hanzo-dev/sdk'
import {redactUrl} from '@hanzo-dev/sdk/settings'

import {providerTarget} from '../agent/endpoint.js'
import {formatOrigin} from '../config/display.js'
import type {HanzoConfig} from '../config/types.js'
import {UserError} from '../errors.js'

/** What one request to a URL met: the HTTP status of whatever answered, or why nothing did. */
export type ProbeResult = {status: number} | {error: string}

export interface ModelCheckInput {
  config: HanzoConfig
  /** Where each setting came from (a file or a variable), by dotted key. */
  origins: Readonly<Record<string, string>>
  /** Sends one request to `url`; absent with `--offline`, when nothing is contacted. */
  probe?: (url: string) => Promise<ProbeResult>
}

const PROVIDER = {id: 'core.model.provider', title: 'model provider is known'} as const
const ENDPOINT = {id: 'core.model.endpoint', title: 'model endpoint is reachable'} as const

/**
 * The provider named in the settings (or HANZO_PROVIDER) exists, and its base URL answers. Only
 * a configured endpoint is contacted: with no `provider` and no `base_url`, a run picks one by
 * the credentials it finds, which is the credentials check's business. Any HTTP answer counts,
 * an error status too (no key is sent, so 401 is what a healthy remote API says); no answer fails.
 */
export async function modelChecks(input: ModelCheckInput): Promise<DoctorCheck[]> {
  const {config, origins, probe} = input
  if (config.provider === undefined && config.base_url === undefined) {
    return [
      {
        ...ENDPOINT,
        detail: 'no provider or base_url set: a run uses the first of hanzo, anthropic, openai with credentials',
        status: 'skip',
      },
    ]
  }

  let target: ReturnType<typeof providerTarget>
  try {
    target = providerTarget(config)
  } catch (error) {
    if (!(error instanceof UserError)) throw error
    return [
      {...PROVIDER, detail: `${error.message} (${formatOrigin(origins.provider)})`, hint: error.hint, status: 'fail'},
    ]
  }

  const {baseURL, builtin, provider} = target
  const checks: DoctorCheck[] = [
    {...PROVIDER, detail: builtin ? `${provider} (built in)` : `${provider} (providers.${provider})`, status: 'ok'},
  ]
  // The built-in URLs are public; a configured one may carry a token in its path or query.
  const shown = baseURL === builtin?.baseURL ? baseURL : redactUrl(baseURL)
  if (!probe) return [...checks, {...ENDPOINT, detail: `${shown}: not contacted (--offline)`, status: 'skip'}]

  const result = await probe(baseURL)
  if ('status' in result)
    return [...checks, {...ENDPOINT, detail: `${shown} answered (HTTP ${result.status})`, status: 'ok'}]
  const setting =
    baseURL === builtin?.baseURL
      ? undefined
      : config.providers?.[provider]?.base_url
        ? `providers.${provider}.base_url`
        : 'base_url'
  const fix = setting
    ? `check ${setting} (${formatOrigin(origins[setting])})`
    : builtin?.local
      ? `start the ${provider} server, or set providers.${provider}.base_url to where it listens`
      : 'check your network connection'
  return [
    ...checks,
    {
      ...ENDPOINT,
      detail: `${shown}: ${result.error}`,
      hint: `${fix}, or run hanzo-dev doctor --offline to skip this check`,
      status: 'fail',
    },
  ]
}
