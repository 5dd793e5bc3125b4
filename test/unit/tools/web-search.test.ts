import {createServer, type IncomingMessage} from 'node:http'
import type {AddressInfo} from 'node:net'

import {describe, expect, it} from 'vitest'

import {webSearchTool, type WebSearchOptions} from '../../../src/adapters/tools/web-search.js'
import {parseResults, providerMessage, searchRequest} from '../../../src/adapters/tools/web-search-providers.js'
import {run, useLocalServer} from './tool-harness.js'

// Issue 39, item 3: web_search through the provider the user configured.

describe('search providers', () => {
  it('reads SearXNG results[].{title,url,content}', () => {
    expect(
      parseResults('searxng', {
        query: 'q',
        results: [
          {content: 'The  <b>official</b>\ndocs &amp; more', title: 'Python docs', url: 'https://docs.python.org/3/'},
          {title: 'no url'},
          {url: 'https://example.org/'},
        ],
      }),
    ).toEqual([
      {snippet: 'The official docs & more', title: 'Python docs', url: 'https://docs.python.org/3/'},
      {snippet: '', title: 'https://example.org/', url: 'https://example.org/'},
    ])
  })

  it('reads Brave (and Hanzo) web.results[].{title,url,description}; no web part is no results', () => {
    const body = {
      type: 'search',
      web: {results: [{description: 'Use <strong>asyncio</strong>.', title: 'asyncio', url: 'https://a.test/'}]},
    }
    expect(parseResults('brave', body)).toEqual([{snippet: 'Use asyncio.', title: 'asyncio', url: 'https://a.test/'}])
    expect(parseResults('hanzo', body)).toEqual(parseResults('brave', body))
    expect(parseResults('brave', {query: {original: 'x'}, type: 'search'})).toEqual([])
    expect(() => parseResults('searxng', {answers: []})).toThrow(
      'the searxng search provider answered JSON without a result list',
    )
  })

  it('asks each provider at its own path, with its own key header', () => {
    const searx = searchRequest('searxng', 'http://127.0.0.1:8888/', 'a b', undefined)
    expect(searx.url.href).toBe('http://127.0.0.1:8888/search?format=json&q=a+b')
    expect(searx.headers.authorization).toBeUndefined()
    const brave = searchRequest('brave', 'https://api.search.brave.com', 'a', 'k1')
    expect(brave.url.href).toBe('https://api.search.brave.com/res/v1/web/search?q=a')
    expect(brave.headers['x-subscription-token']).toBe('k1')
    const hanzo = searchRequest('hanzo', 'https://api.hanzo.ai/v1', 'a', 'k2')
    expect(hanzo.url.href).toBe('https://api.hanzo.ai/v1/search?q=a')
    expect(hanzo.headers.authorization).toBe('Bearer k2')
  })

  it("finds the provider's own sentence in an error answer", () => {
    expect(providerMessage('{"error":{"message":"quota used"}}')).toBe('quota used')
    expect(providerMessage('{"type":"ErrorResponse","error":{"detail":"The token is invalid.","code":"X"}}')).toBe(
      'The token is invalid.',
    )
    expect(providerMessage('{"message":"Too many requests"}')).toBe('Too many requests')
    expect(providerMessage('<html><body><h1>Rate limited</h1></body></html>')).toBe('Rate limited')
    expect(providerMessage('')).toBeUndefined()
  })
})

describe('web_search', () => {
  const serve = useLocalServer()

  const search = (options: WebSearchOptions, input: Parameters<ReturnType<typeof webSearchTool>['execute']>[0]) =>
    run(webSearchTool(options), input, process.cwd())

  it('returns numbered Markdown results from a SearXNG server, filtered by the domains asked for', async () => {
    const asked: IncomingMessage[] = []
    const base = await serve((request, response) => {
      asked.push(request)
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify({
          results: [
            {
              content: 'Coroutines and tasks.',
              title: 'asyncio [docs]',
              url: 'https://docs.python.org/3/library/asyncio.html',
            },
            {content: 'A blog post.', title: 'Blog', url: 'https://blog.example.com/asyncio'},
            {content: 'Spam.', title: 'Spam', url: 'https://spam.docs.python.org/x'},
          ],
        }),
      )
    })
    const options: WebSearchOptions = {env: {}, settings: {provider: 'searxng', url: base}}
    const all = await search(options, {query: 'python asyncio'})
    expect(all.is_error).toBe(false)
    expect(all.output).toBe(
      [
        'Results for "python asyncio" from searxng:',
        '',
        '1. [asyncio \\[docs\\]](https://docs.python.org/3/library/asyncio.html)',
        '   Coroutines and tasks.',
        '2. [Blog](https://blog.example.com/asyncio)',
        '   A blog post.',
        '3. [Spam](https://spam.docs.python.org/x)',
        '   Spam.',
      ].join('\n'),
    )
    expect(all.details).toEqual({kind: 'read', matches: 3})

    const some = await search(options, {
      allowed_domains: ['https://Docs.Python.org/'],
      blocked_domains: ['spam.docs.python.org'],
      query: 'python asyncio',
    })
    expect(some.output).toContain('1. [asyncio')
    expect(some.output).not.toContain('Blog')
    expect(some.output).not.toContain('Spam')
    expect(new URL(asked[1]!.url!, base).searchParams.get('q')).toBe(
      'python asyncio site:docs.python.org -site:spam.docs.python.org',
    )

    const none = await search(options, {allowed_domains: ['rust-lang.org'], query: 'python asyncio'})
    expect(none.output).toBe('No results for "python asyncio" from searxng.')
  })

  it("passes the provider's error message back, and says when it is not JSON", async () => {
    const base = await serve((request, response) => {
      if (request.url?.startsWith('/html')) response.setHeader('content-type', 'text/html').end('<p>hello</p>')
      else
        response
          .writeHead(429, 'Too Many Requests', {'content-type': 'application/json'})
          .end('{"error":{"message":"Rate limit: wait a minute"}}')
    })
    const limited = await search({env: {}, settings: {provider: 'searxng', url: base}}, {query: 'x'})
    expect(limited).toMatchObject({
      error: 'the searxng search provider answered 429 Too Many Requests: Rate limit: wait a minute',
      is_error: true,
    })
    const html = await search({env: {}, settings: {provider: 'searxng', url: `${base}/html`}}, {query: 'x'})
    expect(html.error).toBe(
      `the searxng search provider at ${base}/html did not answer JSON: enable the json format under search.formats in its settings.yml`,
    )
  })

  it('names an unreachable provider and what to check', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    const result = await search({env: {}, settings: {provider: 'searxng', url: base}}, {query: 'x'})
    expect(result.error).toBe(
      `the searxng search provider at ${base} could not be reached (the connection was refused): check that it is running and that web_search.url in the user settings points at it`,
    )
  })

  it('sends Brave the key from the variable the settings name, and says when it is not set', async () => {
    const tokens: unknown[] = []
    const base = await serve((request, response) => {
      tokens.push(request.headers['x-subscription-token'])
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({web: {results: [{description: 'd', title: 't', url: 'https://t.test/'}]}}))
    })
    const settings = {api_key_env: 'MY_BRAVE', provider: 'brave' as const, url: base}
    const found = await search({env: {MY_BRAVE: 'secret-1'}, settings}, {query: 'x'})
    expect(found.output).toContain('1. [t](https://t.test/)\n   d')
    expect(tokens).toEqual(['secret-1'])
    const missing = await search({env: {}, settings}, {query: 'x'})
    expect(missing.error).toBe(
      'the brave search provider needs its key in the environment variable MY_BRAVE, which is not set',
    )
  })

  it("asks Hanzo's API base with the run's credential, or says why there is none", async () => {
    const auth: unknown[] = []
    const base = await serve((request, response) => {
      auth.push([request.url, request.headers.authorization])
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({web: {results: []}}))
    })
    const found = await search(
      {env: {}, hanzoEndpoint: async () => ({apiKey: 'hk-1', baseURL: `${base}/v1`}), settings: {provider: 'hanzo'}},
      {query: 'x'},
    )
    expect(found.output).toBe('No results for "x" from hanzo.')
    expect(auth).toEqual([['/v1/search?q=x', 'Bearer hk-1']])
  })
})
