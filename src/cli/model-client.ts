import {createAnthropicClient} from '../adapters/api/anthropic-client.js'
import {createOpenAIClient} from '../adapters/api/openai-client.js'
import type {ApiClient, ModelError} from '../core/agent/types.js'
import {UserError} from '../core/errors.js'
import {resolveRunEndpoint} from './auth-context.js'
import type {StartRunOptions} from './run-session.js'

/** The run's model client: the scripted one (`--fake-model`), or the provider's wire API. */
export async function modelClient(options: StartRunOptions): Promise<{client: ApiClient; model: string; provider: string}> {
  if (options.fakeModel) {
    const [{createScriptedClient}, {ScriptError}] = await Promise.all([import('../testing/fake-model/scripted-client.js'), import('../testing/fake-model/script.js')])
    const client = await createScriptedClient(options.fakeModel).catch((error: unknown) => {
      throw error instanceof ScriptError ? new UserError(error.message, {exitCode: 2}) : error
    })
    return {client, model: options.flags.model ?? client.model, provider: 'scripted'}
  }

  const endpoint = await resolveRunEndpoint(options.loaded.config, process.env, options.flags, options.warn)
  const {api, apiKey, authScheme, baseURL, maxRetries} = endpoint
  const client =
    api === 'anthropic_messages'
      ? createAnthropicClient({apiKey, authScheme, baseURL, maxRetries})
      : createOpenAIClient({api, apiKey, baseURL, maxRetries})
  return {client, model: endpoint.model, provider: endpoint.provider}
}

export function modelErrorHint(error: ModelError): string | undefined {
  if (error.status === 401 || error.status === 403) return 'check your API key: `hanzo-dev auth login`, or HANZO_API_KEY / ANTHROPIC_API_KEY / OPENAI_API_KEY'
  if (error.status === 402) return 'the account behind this key has no credit left'
  if (error.status === 404) return 'check the model id (--model) and the base URL'
  return undefined
}

