import type {WebSearchSettings} from '../../core/config/types.js'
import {ToolFailure} from './tool-failure.js'

export type WebSearchProvider = WebSearchSettings['provider']

export interface SearchHit {
  title: string
  url: string
  snippet: string
}

/** Where Brave's API lives, and the variable its key is read from when `api_key_env` names none. */
export const BRAVE_DEFAULT_URL = 'https://api.search.brave.com'
export const BRAVE_DEFAULT_KEY_ENV = 'BRAVE_API_KEY'

/**
 * The GET that asks `provider` for `query`. Hanzo's API has no search route in its published
 * spec, so it is asked in Brave's shape (`/search?q=`, `web.results`) on the Hanzo base URL,
 * with the Hanzo credential as a bearer token.
 */
export function searchRequest(
  provider: WebSearchProvider,
  base: string,
  query: string,
  key: string | undefined,
): {url: URL; headers: Record<string, string>} {
  const headers: Record<string, string> = {accept: 'application/json', 'user-agent': 'hanzo-dev web_search'}
  const root = base.replace(/\/+$/, '')
  let url: URL
  if (provider === 'searxng') {
    url = new URL(`${root}/search`)
    url.searchParams.set('format', 'json')
    if (key) headers.authorization = `Bearer ${key}`
  } else if (provider === 'brave') {
    url = new URL(`${root}/res/v1/web/search`)
    if (key) headers['x-subscription-token'] = key
  } else {
    url = new URL(`${root}/search`)
    if (key) headers.authorization = `Bearer ${key}`
  }

  url.searchParams.set('q', query)
  return {headers, url}
}

type Json = Record<string, unknown>

/** The results of a provider's answer, in its own shape: SearXNG `results[]`, Brave (and Hanzo) `web.results[]`. */
export function parseResults(provider: WebSearchProvider, body: unknown): SearchHit[] {
  // Brave leaves `web` out of an answer without web results.
  if (provider !== 'searxng' && isObject(body) && body.web === undefined) return []
  const list = provider === 'searxng' ? field(body, 'results') : field(field(body, 'web'), 'results')
  if (!Array.isArray(list)) throw new ToolFailure(`the ${provider} search provider answered JSON without a result list`)
  const snippetKey = provider === 'searxng' ? 'content' : 'description'
  return list.flatMap((item) => {
    const url = field(item, 'url')
    if (typeof url !== 'string') return []
    const title = field(item, 'title')
    const snippet = field(item, snippetKey)
    return [
      {
        snippet: typeof snippet === 'string' ? plainText(snippet) : '',
        title: typeof title === 'string' ? plainText(title) : url,
        url,
      },
    ]
  })
}

/** The sentence a provider put in an error answer, whichever of the usual places it used. */
export function providerMessage(text: string): string | undefined {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    const line = plainText(text).slice(0, 300)
    return line || undefined
  }

  const error = field(body, 'error')
  const candidates = [
    field(error, 'message'),
    field(error, 'detail'),
    error,
    field(body, 'message'),
    field(body, 'detail'),
  ]
  const found = candidates.find((value): value is string => typeof value === 'string' && value.trim() !== '')
  return found && plainText(found).slice(0, 300)
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function field(value: unknown, key: string): unknown {
  return isObject(value) ? value[key] : undefined
}

const ENTITIES: Record<string, string> = {amp: '&', apos: "'", gt: '>', lt: '<', nbsp: ' ', quot: '"'}

/** Snippets come with highlighting markup (Brave's `<strong>`) and entities: the model reads plain text. */
function plainText(text: string): string {
  return text
    .replaceAll(/<[^>]*>/g, '')
    .replaceAll(/&(#x[\da-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1))
      return code > 0 && code <= 0x10_ffff ? String.fromCodePoint(code) : whole
    })
    .replaceAll(/\s+/g, ' ')
    .trim()
}
