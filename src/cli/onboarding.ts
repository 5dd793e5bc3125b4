import {oneLine, printable} from '@hanzo-dev/sdk/terminal-text'

import {openAuthContext} from '../adapters/auth/auth-context.js'
import {type EndpointModel, listEndpointModels} from '../adapters/endpoint-models.js'
import {BUILTIN_PROVIDERS, isLoopbackHost} from '../core/agent/endpoint.js'
import {ModelError} from '../core/agent/types.js'
import {AUTO_DETECT_ORDER, loginChoices, resolveAuthProvider} from '../core/auth/providers.js'
import type {HanzoConfig} from '../core/config/types.js'
import {UserError} from '../core/errors.js'
import {loginWithOAuth} from './auth-login.js'
import {describeCredential} from './auth-report.js'
import {interruptSignal, readApiKey, withSpinner} from './auth-terminal.js'
import {editSetting} from './settings-target.js'

/** A model server found on this machine: a built-in local provider, or one the user settings name. */
export interface LocalServer {
  provider: string
  baseURL: string
  models: EndpointModel[]
}

type SetupChoice =
  | {kind: 'oauth'; provider: string; device: boolean}
  | {kind: 'api_key'; provider: string}
  | {kind: 'local'; server: LocalServer}
  | {kind: 'base_url'}
  | {kind: 'quit'}

export interface SetupOptions {
  config: HanzoConfig
  env: Readonly<Record<string, string | undefined>>
  cwd: string
  warn(message: string): void
}

/** A local server answers at once or not at all: the setup screen does not wait on a closed port. */
const PROBE_TIMEOUT_MS = 800
/** The provider a typed base URL is saved as (`providers.custom`). */
const CUSTOM_PROVIDER = 'custom'
/** The settings `--tier user` writes: the setup is the user's, for every project. */
const USER_TIER = 'user'

/**
 * The setup screen of a first run (bare `hanzo-dev` or `chat` with no credential) and of `/login`:
 * log in to a provider (browser or device code), paste an API key (hidden, stored as `auth login
 * --with-api-key` stores it), or use a model server found on this machine (Ollama, vLLM, LM
 * Studio, or one the settings name) or typed in. Returns what was set up, in a line; undefined
 * when the user quit. On stderr, as `auth login` asks: stdout stays the session's.
 */
export async function runSetup(options: SetupOptions): Promise<string | undefined> {
  const {config, env} = options
  const servers = await withSpinner('Looking for model servers on this machine', probeLocalServers(config))
  const {select} = await import('@inquirer/prompts')
  const choice = await select<SetupChoice>(
    {choices: setupChoices(config, servers), message: 'How should hanzo-dev reach a model?', pageSize: 12},
    {output: process.stderr},
  )
  if (choice.kind === 'quit') return undefined
  if (choice.kind === 'local') return useServer(choice.server, options)
  if (choice.kind === 'base_url') return typedServer(options)
  const context = await openAuthContext(config, env, options.warn)
  if (choice.kind === 'api_key') {
    const credential = {key: await readApiKey(choice.provider), type: 'api_key'} as const
    await context.store.store(choice.provider, credential)
    return `Stored the ${choice.provider} API key in ${describeCredential(choice.provider, credential, context).storedIn}.`
  }

  const {release, signal} = interruptSignal('Login')
  try {
    await loginWithOAuth(
      context,
      resolveAuthProvider(choice.provider, config),
      {browser: !choice.device, device: choice.device},
      {
        input: process.stdin,
        say: (message) => process.stderr.write(`${printable(message)}\n`),
        signal,
        waiting: withSpinner,
        warn: options.warn,
      },
    )
  } finally {
    release()
  }

  return `Logged in to ${choice.provider}.`
}

/** The built-in local servers and the configured providers whose base URL is on this machine, that answer with a model list. */
export async function probeLocalServers(config: HanzoConfig): Promise<LocalServer[]> {
  const candidates = new Map<string, string>()
  for (const [provider, {baseURL, local}] of Object.entries(BUILTIN_PROVIDERS))
    if (local) candidates.set(provider, baseURL)
  for (const [provider, settings] of Object.entries(config.providers ?? {}))
    if (settings.base_url && isLocalUrl(settings.base_url)) candidates.set(provider, settings.base_url)
  const found = await Promise.all(
    [...candidates].map(async ([provider, baseURL]) => {
      const models = await listEndpointModels({baseURL, wire: 'openai'}, {timeoutMs: PROBE_TIMEOUT_MS}).catch(
        () => undefined,
      )
      return models && {baseURL, models, provider}
    }),
  )
  return found.filter((server) => server !== undefined)
}

function setupChoices(config: HanzoConfig, servers: readonly LocalServer[]) {
  const logins = loginChoices(config).filter(({method}) => method === 'oauth')
  return [
    ...logins.flatMap(({provider}) => [
      {name: `Log in to ${provider} in the browser`, value: {device: false, kind: 'oauth', provider} as SetupChoice},
      {
        name: `Log in to ${provider} with a code (on another device)`,
        value: {device: true, kind: 'oauth', provider} as SetupChoice,
      },
    ]),
    ...AUTO_DETECT_ORDER.map((provider) => ({
      name: `Paste an API key for ${provider}`,
      value: {kind: 'api_key', provider} as SetupChoice,
    })),
    ...servers.map((server) => ({
      name: oneLine(`Use ${server.provider} on ${server.baseURL} (${countModels(server.models.length)})`),
      value: {kind: 'local', server} as SetupChoice,
    })),
    {name: 'Use another OpenAI-compatible server: type its base URL', value: {kind: 'base_url'} as SetupChoice},
    {name: 'Quit', value: {kind: 'quit'} as SetupChoice},
  ]
}

/** A found server: its model is picked from its list, and both are saved in the user settings. */
async function useServer(server: LocalServer, options: SetupOptions): Promise<string> {
  const model = await pickModel(server)
  await save(options, {model, provider: server.provider})
  return `Using ${model} on ${server.provider} (${server.baseURL}); saved in your user settings.`
}

/** A typed base URL becomes the `custom` provider; a server that wants a key gets one, stored like a login. */
async function typedServer(options: SetupOptions): Promise<string> {
  const {input} = await import('@inquirer/prompts')
  const baseURL = (
    await input(
      {
        message: 'Base URL (OpenAI-compatible, e.g. http://127.0.0.1:8080/v1)',
        validate: (value) => /^https?:\/\/\S+$/.test(value.trim()) || 'an http:// or https:// URL',
      },
      {output: process.stderr},
    )
  )
    .trim()
    .replace(/\/$/, '')
  const list = (apiKey?: string) =>
    withSpinner(`Asking ${baseURL} for its models`, listEndpointModels({apiKey, baseURL, wire: 'openai'}))
  let apiKey: string | undefined
  const models = await list().catch(async (error: unknown) => {
    if (!(error instanceof ModelError) || (error.status !== 401 && error.status !== 403))
      throw unreachable(baseURL, error)
    apiKey = await readApiKey(CUSTOM_PROVIDER)
    return list(apiKey).catch((again: unknown) => {
      throw unreachable(baseURL, again)
    })
  })
  if (apiKey) {
    const context = await openAuthContext(options.config, options.env, options.warn)
    await context.store.store(CUSTOM_PROVIDER, {key: apiKey, type: 'api_key'})
  }

  const model = await pickModel({baseURL, models, provider: CUSTOM_PROVIDER})
  await save(options, {[`providers.${CUSTOM_PROVIDER}.base_url`]: baseURL, model, provider: CUSTOM_PROVIDER})
  return `Using ${model} on ${baseURL}; saved in your user settings as provider "${CUSTOM_PROVIDER}".`
}

async function pickModel(server: LocalServer): Promise<string> {
  const {input, select} = await import('@inquirer/prompts')
  if (server.models.length === 0)
    return input(
      {message: `${server.baseURL} lists no models: the model id to ask for`, required: true},
      {output: process.stderr},
    )
  return select(
    {
      choices: server.models.map(({contextWindow, id}) => ({
        name: oneLine(contextWindow ? `${id} (${Math.round(contextWindow / 1000)}k context)` : id),
        value: id,
      })),
      message: 'Model',
      pageSize: 12,
    },
    {output: process.stderr},
  )
}

async function save(options: SetupOptions, settings: Record<string, string>): Promise<void> {
  for (const [key, value] of Object.entries(settings))
    await editSetting({cwd: options.cwd, key, tier: USER_TIER, value: JSON.stringify(value)})
}

function unreachable(baseURL: string, error: unknown): UserError {
  return new UserError(`No model list from ${baseURL}: ${error instanceof Error ? error.message : String(error)}`, {
    hint: 'check the URL (it usually ends in /v1) and that the server is running, then /login or hanzo-dev again',
  })
}

function isLocalUrl(url: string): boolean {
  return URL.canParse(url) && isLoopbackHost(new URL(url).hostname)
}

function countModels(count: number): string {
  return count === 1 ? '1 model' : `${count} models`
}
