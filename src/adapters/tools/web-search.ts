import {type ToolDefinition, toolError, toolOk} from '@hanzo-dev/sdk'

import type {WebSearchSettings} from '../../core/config/types.js'
import {UserError} from '../../core/errors.js'
import {objectSchema} from './input-schema.js'
import {ToolFailure} from './tool-failure.js'
import {
  BRAVE_DEFAULT_KEY_ENV,
  BRAVE_DEFAULT_URL,
  parseResults,
  providerMessage,
  type SearchHit,
  searchRequest,
} from './web-search-providers.js'

export type WebSearchInput = {query: string; allowed_domains?: string[]; blocked_domains?: string[]}

export interface WebSearchOptions {
  settings: WebSearchSettings
  env: Readonly<Record<string, string | undefined>>
  /**
   * The Hanzo API's base URL and the credential a run would use, for the `hanzo` provider: asked
   * on the first search, so a session that never searches never opens the credential store.
   */
  hanzoEndpoint?: () => Promise<{baseURL: string; apiKey?: string}>
}

export const WEB_SEARCH_TIMEOUT_MS = 15_000
export const WEB_SEARCH_MAX_RESULTS = 10
const SNIPPET_CHARS = 400

export function webSearchTool(options: WebSearchOptions): ToolDefinition<WebSearchInput> {
  const {provider} = options.settings
  const domains = (description: string) => ({description, items: {pattern: '\\S', type: 'string'}, type: 'array'})
  return {
    name: 'web_search',
    aliases: ['WebSearch'],
    description: [
      `Search the web (through the ${provider} search provider the user configured) and get up to ${WEB_SEARCH_MAX_RESULTS} results: title, URL and snippet.`,
      'Read a result with web_fetch.',
    ].join(' '),
    inputSchema: objectSchema(
      {
        allowed_domains: domains(
          'Only results from these domains (and their subdomains), such as ["docs.python.org"].',
        ),
        blocked_domains: domains('No results from these domains (and their subdomains).'),
        query: {description: 'What to search for.', pattern: '\\S', type: 'string'},
      },
      ['query'],
    ),
    mutating: false,
    kind: 'fetch',
    describe: (input) => input.query,
    async execute(input, context) {
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(WEB_SEARCH_TIMEOUT_MS)])
      const where = `the ${provider} search provider`
      try {
        const {base, key} = await target(options)
        const request = searchRequest(provider, base, withOperators(input), key)
        const response = await fetch(request.url, {headers: request.headers, redirect: 'follow', signal}).catch(
          (error: unknown) => {
            throw unreachable(error, `${where} at ${base}`)
          },
        )
        const text = await response.text()
        if (!response.ok) {
          const said = providerMessage(text)
          return toolError(
            `${where} answered ${response.status} ${response.statusText}`.trim() + (said ? `: ${said}` : ''),
          )
        }

        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          throw new ToolFailure(
            `${where} at ${base} did not answer JSON${provider === 'searxng' ? ': enable the json format under search.formats in its settings.yml' : ''}`,
          )
        }

        const hits = kept(parseResults(provider, body), input)
        return toolOk(report(input.query, provider, hits), {kind: 'read', matches: hits.length})
      } catch (error) {
        if (context.signal.aborted) return toolError('cancelled')
        if (signal.aborted) return toolError(`${where} did not answer within ${WEB_SEARCH_TIMEOUT_MS / 1000} s`)
        if (error instanceof ToolFailure) return toolError(error.message)
        if (error instanceof UserError)
          return toolError(`${where}: ${error.message}${error.hint ? ` (${error.hint})` : ''}`)
        throw error
      }
    },
  }
}

/** The base URL and key of the configured provider; a missing key is said before any request. */
async function target({env, hanzoEndpoint, settings}: WebSearchOptions): Promise<{base: string; key?: string}> {
  const variable = settings.api_key_env ?? (settings.provider === 'brave' ? BRAVE_DEFAULT_KEY_ENV : undefined)
  const key = variable ? env[variable] : undefined
  if (variable && !key)
    throw new ToolFailure(
      `the ${settings.provider} search provider needs its key in the environment variable ${variable}, which is not set`,
    )
  if (settings.provider === 'searxng') {
    if (!settings.url) throw new ToolFailure('the searxng search provider has no url: set web_search.url')
    return {base: settings.url, key}
  }

  if (settings.provider === 'brave') return {base: settings.url ?? BRAVE_DEFAULT_URL, key}
  // The credential store is opened only for what the settings leave out.
  const hanzo = settings.url && key ? undefined : await hanzoEndpoint?.()
  return {base: settings.url ?? hanzo?.baseURL ?? 'https://api.hanzo.ai/v1', key: key ?? hanzo?.apiKey}
}

/** A connection that failed, named with the provider and what to check. */
function unreachable(error: unknown, where: string): ToolFailure {
  const cause = (error as {cause?: NodeJS.ErrnoException}).cause
  const code = cause?.code
  const why =
    code === 'ECONNREFUSED'
      ? 'the connection was refused'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'the host was not found'
        : (cause?.message ?? (error as Error).message)
  return new ToolFailure(
    `${where} could not be reached (${why}): check that it is running and that web_search.url in the user settings points at it`,
  )
}

/** The domain choices as search operators, which Brave, Google and the engines SearXNG asks understand. */
function withOperators({allowed_domains: allowed = [], blocked_domains: blocked = [], query}: WebSearchInput): string {
  const sites = allowed.map((domain) => `site:${bareDomain(domain)}`)
  const only = sites.length > 1 ? ` (${sites.join(' OR ')})` : sites.length === 1 ? ` ${sites[0]}` : ''
  return `${query}${only}${blocked.map((domain) => ` -site:${bareDomain(domain)}`).join('')}`
}

/** What a provider returned that the domain choices allow: an engine may ignore the operators. */
function kept(hits: SearchHit[], {allowed_domains: allowed, blocked_domains: blocked}: WebSearchInput): SearchHit[] {
  const within = (host: string, domains: string[]) =>
    domains.some((domain) => {
      const bare = bareDomain(domain)
      return host === bare || host.endsWith(`.${bare}`)
    })
  return hits
    .filter((hit) => {
      let host: string
      try {
        host = new URL(hit.url).hostname.toLowerCase()
      } catch {
        return false
      }

      return (!allowed?.length || within(host, allowed)) && !(blocked && within(host, blocked))
    })
    .slice(0, WEB_SEARCH_MAX_RESULTS)
}

/** `https://Docs.Python.org/3/` and `*.python.org` as the domain they name. */
function bareDomain(domain: string): string {
  return domain
    .trim()
    .toLowerCase()
    .replace(/^[a-z]+:\/\//, '')
    .replace(/^\*\./, '')
    .replace(/[/:].*$/, '')
}

function report(query: string, provider: string, hits: SearchHit[]): string {
  if (hits.length === 0) return `No results for "${query}" from ${provider}.`
  const lines = hits.map((hit, i) => {
    const snippet = hit.snippet.length > SNIPPET_CHARS ? `${hit.snippet.slice(0, SNIPPET_CHARS)}…` : hit.snippet
    const title = hit.title.replaceAll(/[[\]]/g, '\\$&')
    return `${i + 1}. [${title}](${hit.url})${snippet ? `\n   ${snippet}` : ''}`
  })
  return `Results for "${query}" from ${provider}:\n\n${lines.join('\n')}`
}
