import {UserError} from '../errors.js'
import type {ApiClient} from './types.js'

/**
 * The model client and OpenAI wire API a program sets once, as hanzo-agent's
 * `set_default_openai_client` / `set_default_openai_api` (and @openai/agents'
 * `setDefaultOpenAIClient` / `setOpenAIAPI`):
 *
 *   setDefaultOpenAIClient(createOpenAIClient({baseURL: 'http://127.0.0.1:11434/v1'}))
 *   setDefaultOpenAIApi('chat_completions')
 *   await Runner.run(agent, 'Hi')                  // no {client}
 *
 * The API applies to clients made without `api` (`createOpenAIClient({baseURL})`), read at each
 * request, so the two calls may come in either order; a client made with `api` keeps its own.
 *
 * There is no implicit client and no `setDefaultOpenAIKey`: the SDKs fall back to
 * OPENAI_API_KEY (and OPENAI_BASE_URL) for a client they make themselves, but hanzo-agent's
 * README (spec 003) names the endpoint and the key together in the client, and the CLI reads
 * HANZO_* settings, not OPENAI_*. A library that sent an OpenAI key found in the environment to
 * an endpoint nobody named would surprise; without a client, `Runner.run` says what to set.
 */
export type OpenAIApi = 'chat_completions' | 'responses'

/** As in the SDKs: the Responses API until `setDefaultOpenAIApi` says otherwise. */
export const DEFAULT_OPENAI_API: OpenAIApi = 'responses'

let defaultClient: ApiClient | undefined
let defaultApi: OpenAIApi = DEFAULT_OPENAI_API

/** The client `Runner.run` uses when it is given none; a later call replaces it. */
export function setDefaultOpenAIClient(client: ApiClient): void {
  if (typeof (client as Partial<ApiClient> | undefined)?.sendMessage !== 'function') {
    // The likely mistake of someone coming from the SDKs: an `openai` package client.
    throw new TypeError(
      'setDefaultOpenAIClient takes a model client such as createOpenAIClient({baseURL, apiKey}) or createAnthropicClient(...) returns; an openai package client is not one (give its baseURL and apiKey to createOpenAIClient)',
    )
  }

  defaultClient = client
}

/** `chat_completions` sends POST /v1/chat/completions, `responses` (the default) POST /v1/responses. */
export function setDefaultOpenAIApi(api: OpenAIApi): void {
  if (api !== 'chat_completions' && api !== 'responses')
    throw new TypeError(`setDefaultOpenAIApi takes 'chat_completions' or 'responses', not ${JSON.stringify(api)}`)
  defaultApi = api
}

export function getDefaultOpenAIClient(): ApiClient | undefined {
  return defaultClient
}

export function getDefaultOpenAIApi(): OpenAIApi {
  return defaultApi
}

/** Back to no default client and the Responses API (tests, and programs that want every run to name its client). */
export function resetOpenAIDefaults(): void {
  defaultClient = undefined
  defaultApi = DEFAULT_OPENAI_API
}

/** `Runner.run` was given no client and no default was set. */
export class MissingModelClientError extends UserError {
  constructor() {
    super(
      'Runner.run needs a model client: pass {client} (e.g. createOpenAIClient({baseURL})), or call setDefaultOpenAIClient(client) once before running',
      {
        hint: "for a local OpenAI-compatible server: setDefaultOpenAIClient(createOpenAIClient({baseURL: 'http://127.0.0.1:11434/v1'})) and setDefaultOpenAIApi('chat_completions')",
      },
    )
    this.name = 'MissingModelClientError'
  }
}
