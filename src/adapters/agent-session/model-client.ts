import {createAnthropicClient} from '../api/anthropic-client.js'
import {createOpenAIClient, promptCacheKey} from '../api/openai-client.js'
import type {ModelEndpoint} from '../../core/agent/endpoint.js'
import type {ListedModel} from '@hanzo-dev/sdk'

import type {ApiClient, ModelError} from '../../core/agent/types.js'
import {redactBaseUrl} from '../../core/config/redact.js'
import {UserError} from '../../core/errors.js'
import {resolveRunEndpoint} from '../auth/auth-context.js'
import type {SettingRank} from '../../core/config/precedence.js'
import type {HanzoConfig} from '../../core/config/types.js'

export interface ModelClientOptions {
  config: HanzoConfig
  env: Readonly<Record<string, string | undefined>>
  model?: string
  /**
   * The model the settings name, when a file or the environment names one: without it the
   * provider's own default is asked for (OpenAI's, not the built-in Anthropic one).
   */
  settingsModel?: string
  baseURL?: string
  /** Where each setting came from (`settingRank`): which of two settings that decide one thing wins. */
  rank?: SettingRank
  /** A model script to replay instead of a server (hidden `--fake-model`). */
  fakeModel?: string
  /** The session's id: OpenAI's prompt cache key for its requests. */
  sessionId: string
  warn(message: string): void
}

/** A session's model: its client, the hint for its errors, and what its endpoint lists (`/model`). */
export interface SessionModel {
  client: ApiClient
  model: string
  provider: string
  errorHint: ErrorHint
  listModels(signal?: AbortSignal): Promise<ListedModel[]>
}

/** The session's model client (the scripted one with `fakeModel`, or the provider's wire API), and the hint for its errors. */
export async function modelClient(options: ModelClientOptions): Promise<SessionModel> {
  if (options.fakeModel) {
    const [{createScriptedClient}, {ScriptError}] = await Promise.all([
      import('../../testing/fake-model/scripted-client.js'),
      import('../../testing/fake-model/script.js'),
    ])
    const client = await createScriptedClient(options.fakeModel).catch((error: unknown) => {
      throw error instanceof ScriptError ? new UserError(error.message, {exitCode: 2}) : error
    })
    return {
      client,
      errorHint: (error) => modelErrorHint(error),
      listModels: async () => [{id: client.model}],
      model: options.model ?? client.model,
      provider: 'scripted',
    }
  }

  const endpoint = await resolveRunEndpoint(
    options.config,
    options.env,
    {baseURL: options.baseURL, model: options.model ?? options.settingsModel, rank: options.rank},
    options.warn,
  )
  const {api, apiKey, authScheme, baseURL, maxRetries, promptCache} = endpoint
  const client =
    api === 'anthropic_messages'
      ? createAnthropicClient({apiKey, authScheme, baseURL, maxRetries, promptCache})
      : createOpenAIClient({
          api,
          apiKey,
          baseURL,
          maxRetries,
          promptCacheKey: promptCacheKey(endpoint, options.sessionId),
        })
  return {
    client,
    errorHint: (error) => modelErrorHint(error, endpoint),
    // Asked with the key and scheme a run sends (the adapter is loaded only when /model lists).
    async listModels(signal) {
      const {listEndpointModels, modelListEndpoint} = await import('../endpoint-models.js')
      return listEndpointModels(modelListEndpoint(endpoint), {signal})
    },
    model: endpoint.model,
    provider: endpoint.provider,
  }
}

export type ErrorHint = (error: ModelError) => string | undefined

/**
 * What to try after a model error. A local server refusing the request was sent no key unless
 * the provider has its own (endpoint.ts): the keys of Hanzo's and OpenAI's APIs never go there,
 * so "check HANZO_API_KEY" would send the user after the wrong thing.
 */
export function modelErrorHint(
  error: ModelError,
  endpoint?: Pick<ModelEndpoint, 'apiKey' | 'baseURL' | 'local' | 'provider'>,
): string | undefined {
  if (error.status === 401 || error.status === 403) {
    if (!endpoint?.local)
      return 'check your API key: `hanzo-dev auth login`, or HANZO_API_KEY / ANTHROPIC_API_KEY / OPENAI_API_KEY'
    const setting = `providers.${endpoint.provider}.api_key`
    if (endpoint.apiKey)
      return `check the key sent to this local server: ${setting}, or the login of \`hanzo-dev auth login\``
    return `no key was sent: a local server (${redactBaseUrl(endpoint.baseURL)}) gets none of HANZO_API_KEY, OPENAI_API_KEY, ANTHROPIC_API_KEY or api_key; to send it a key, set ${setting} (\`hanzo-dev config set ${setting} <key>\`)`
  }

  if (error.status === 402) return 'the account behind this key has no credit left'
  if (error.status === 404) return 'check the model id (--model) and the base URL'
  return undefined
}
