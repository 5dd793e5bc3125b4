import type {DoctorCheck} from '@hanzo-dev/sdk'
import {redactUrl} from '@hanzo-dev/sdk/settings'

import {BUILTIN_PROVIDERS, providerTarget} from '../agent/endpoint.js'
import {formatOrigin} from '../config/display.js'
import {type SettingRank, UNRANKED} from '../config/precedence.js'
import type {HanzoConfig} from '../config/types.js'
import {UserError} from '../errors.js'

/**
 * What asking the run's endpoint for its models met: the list, the failure (`status` when the
 * server answered, `noList` when it answered without a list), or no endpoint to ask (`unresolved`:
 * no key for a remote API, with the resolver's own words).
 */
export type EndpointProbe =
  | {kind: 'listed'; provider: string; baseURL: string; model: string; models: string[]}
  | {
      kind: 'failed'
      provider: string
      baseURL: string
      model: string
      error: {message: string; status?: number; noList?: boolean; hint?: string}
    }
  | {kind: 'unresolved'; message: string; hint?: string}

export interface ModelCheckInput {
  config: HanzoConfig
  /** Where each setting came from (a file or a variable), by dotted key. */
  origins: Readonly<Record<string, string>>
  /** Which of two settings that decide one thing wins (`settingRank`). */
  rank?: SettingRank
  /** Resolves the run's endpoint with its credentials and lists its models; absent with `--offline`, when nothing is contacted. */
  probe?: () => Promise<EndpointProbe>
}

const PROVIDER = {id: 'core.model.provider', title: 'model provider is known'} as const
const ENDPOINT = {id: 'core.model.endpoint', title: 'model endpoint answers'} as const
const LISTED = {id: 'core.model.listed', title: 'the model is served there'} as const
const NOTHING_CONFIGURED =
  'no provider or base_url set: a run uses the first of hanzo, anthropic, openai with credentials'
/** A server that answers these has no model list to give, which says nothing of the rest of its API. */
const NO_LIST_STATUSES = new Set([405, 501])

/**
 * The model endpoint a run would use, asked as a run asks it: same URL, same credential. Its
 * model list says whether the credential works (401/403 fail, with the server's own message),
 * whether the URL is an API at all (404 fails) and whether it serves the model the run asks for
 * (a model it does not list fails). A server without a model list is a warning: the model cannot
 * be checked. Only a configured endpoint is contacted: with no `provider` and no `base_url`, a
 * run picks one by the credentials it finds, which is the credentials check's business.
 */
export async function modelChecks(input: ModelCheckInput): Promise<DoctorCheck[]> {
  const {config, origins, probe} = input
  const rank = input.rank ?? UNRANKED
  if (config.provider === undefined && config.base_url === undefined)
    return [{...ENDPOINT, detail: NOTHING_CONFIGURED, status: 'skip'}]

  let target: ReturnType<typeof providerTarget>
  try {
    target = providerTarget(config, {rank})
  } catch (error) {
    if (!(error instanceof UserError)) throw error
    return [
      {...PROVIDER, detail: `${error.message} (${formatOrigin(origins.provider)})`, hint: error.hint, status: 'fail'},
    ]
  }

  const {builtin, provider} = target
  const checks: DoctorCheck[] = [
    {...PROVIDER, detail: builtin ? `${provider} (built in)` : `${provider} (providers.${provider})`, status: 'ok'},
  ]
  if (!probe)
    return [
      ...checks,
      {...ENDPOINT, detail: `${shownUrl(target.baseURL, provider)}: not contacted (--offline)`, status: 'skip'},
    ]

  const answer = await probe()
  if (answer.kind === 'unresolved')
    return [...checks, {...ENDPOINT, detail: `${answer.message}: not contacted`, hint: answer.hint, status: 'warn'}]

  const shown = shownUrl(answer.baseURL, answer.provider)
  if (answer.kind === 'listed') {
    const count = `${answer.models.length} model${answer.models.length === 1 ? '' : 's'}`
    return [
      ...checks,
      {...ENDPOINT, detail: `${shown} (${answer.provider}) lists ${count}`, status: 'ok'},
      listedCheck(answer, shown, origins),
    ]
  }

  const {error} = answer
  // Without a status the message names the server itself ("Could not connect to ... at URL").
  const said = error.status === undefined ? error.message : `${shown}: HTTP ${error.status}: ${error.message}`
  if (error.noList || (error.status !== undefined && NO_LIST_STATUSES.has(error.status))) {
    return [
      ...checks,
      {
        ...ENDPOINT,
        detail: said,
        hint: 'it gives no model list, so the model was not checked',
        status: 'warn',
      },
      {...LISTED, detail: `${answer.model}: not checked`, status: 'skip'},
    ]
  }

  const hint = failureHint(answer, {config, origins, rank})
  return [...checks, {...ENDPOINT, detail: said, hint, status: 'fail'}]
}

/** The built-in URLs are public; a configured one may carry a token in its path or query. */
function shownUrl(baseURL: string, provider: string): string {
  return baseURL === BUILTIN_PROVIDERS[provider]?.baseURL ? baseURL : redactUrl(baseURL)
}

function listedCheck(
  answer: Extract<EndpointProbe, {kind: 'listed'}>,
  shown: string,
  origins: Readonly<Record<string, string>>,
): DoctorCheck {
  const {model, models} = answer
  if (servesModel(models, model)) return {...LISTED, detail: model, status: 'ok'}
  const offered =
    models.length === 0
      ? 'it lists none'
      : `it lists ${models.slice(0, 5).join(', ')}${models.length > 5 ? ', ...' : ''}`
  const origin =
    origins.model === 'default' ? `the default of provider ${answer.provider}` : formatOrigin(origins.model)
  return {
    ...LISTED,
    detail: `${model} (${origin}) is not a model ${shown} lists: ${offered}`,
    hint: 'name one it serves: hanzo-dev config set model <id>, HANZO_MODEL or --model',
    status: 'fail',
  }
}

/**
 * Whether a model id names one the list holds, as the servers resolve ids: exactly, Ollama's
 * `name` for `name:latest`, and Anthropic's aliases (`-latest`, `-0`), which it accepts
 * without listing them, for any dated version of the same model.
 */
export function servesModel(models: readonly string[], model: string): boolean {
  if (models.includes(model) || models.includes(`${model}:latest`)) return true
  const alias = /^(.+)-(latest|0)$/.exec(model)?.[1]
  return alias !== undefined && models.some((id) => id.startsWith(`${alias}-`))
}

function failureHint(
  answer: Extract<EndpointProbe, {kind: 'failed'}>,
  settings: {config: HanzoConfig; origins: Readonly<Record<string, string>>; rank: SettingRank},
): string {
  const {error, provider} = answer
  const {config, origins, rank} = settings
  // The setting that put this URL there; none when it is the provider's own (or a flag's).
  const target = providerTarget({...config, provider}, {rank})
  const setting = target.baseURL === answer.baseURL ? target.baseUrlSetting : undefined
  const where = setting && `${setting} (${formatOrigin(origins[setting])})`
  if (error.status === 404)
    return `${where ? `check ${where}: ` : ''}the server has no model list there (does the URL lack its /v1?)`
  if (error.hint) return error.hint
  const fix = where
    ? `check ${where}`
    : BUILTIN_PROVIDERS[provider]?.local
      ? `start the ${provider} server, or set providers.${provider}.base_url to where it listens`
      : 'check your network connection'
  return `${fix}, or run hanzo-dev doctor --offline to skip this check`
}
