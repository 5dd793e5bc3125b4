import {mkdirSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'

// Issue 39, item 3: the model searches through the provider the user configured; without one
// there is no web_search to call.

describe('web_search in a run', () => {
  const dirs = useSandboxDirs('hanzo-websearch-', 'project')
  let model: FakeModel | undefined
  let searx: Server | undefined
  afterEach(async () => {
    await model?.close()
    await new Promise<void>((resolve) => (searx ? searx.close(() => resolve()) : resolve()))
    model = undefined
    searx = undefined
  })

  /** A SearXNG instance on 127.0.0.1 answering its JSON format, as `search.formats: [json]` makes it. */
  async function startSearx(): Promise<{url: string; queries: string[]}> {
    const queries: string[] = []
    searx = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://localhost')
      if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
        response.writeHead(403).end('Forbidden')
        return
      }

      queries.push(url.searchParams.get('q') ?? '')
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify({
          number_of_results: 2,
          query: url.searchParams.get('q'),
          results: [
            {
              content: 'What is new in <b>Python 3.13</b>.',
              engine: 'duckduckgo',
              title: "What's New In Python 3.13",
              url: 'https://docs.python.org/3/whatsnew/3.13.html',
            },
            {
              content: 'Release page.',
              engine: 'bing',
              title: 'Python 3.13.0',
              url: 'https://www.python.org/downloads/',
            },
          ],
        }),
      )
    })
    await new Promise<void>((resolve) => searx!.listen(0, '127.0.0.1', resolve))
    return {queries, url: `http://127.0.0.1:${(searx.address() as AddressInfo).port}`}
  }

  async function setUp(settings: Record<string, unknown>, script: Script) {
    model = await startFakeModel(script)
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), JSON.stringify(settings))
    return runCli(['run', 'what is new in python?', '--base-url', model.url], {cwd: dirs.project, env: dirs.box.env})
  }

  it('gives the model numbered results from a SearXNG server the user settings name', async () => {
    const {queries, url} = await startSearx()
    const result = await setUp(
      {permissions: {web_search: 'allow'}, web_search: {provider: 'searxng', url}},
      {
        turns: [
          {
            expect: {tools_include: ['web_fetch', 'web_search']},
            tool_calls: [
              {arguments: {allowed_domains: ['docs.python.org'], query: 'python 3.13 news'}, name: 'web_search'},
            ],
          },
          {
            expect: {
              tool_result_contains:
                'Results for "python 3.13 news" from searxng:\n\n1. [What\'s New In Python 3.13](https://docs.python.org/3/whatsnew/3.13.html)\n   What is new in Python 3.13.',
            },
            text: 'See the 3.13 notes.',
          },
        ],
      },
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('See the 3.13 notes.')
    expect(queries).toEqual(['python 3.13 news site:docs.python.org'])
  })

  it('offers no web_search without a provider, nor for one a project names', async () => {
    mkdirSync(join(dirs.project, '.hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.project, '.hanzo', 'settings.json'),
      JSON.stringify({web_search: {provider: 'searxng', url: 'https://search.test'}}),
    )
    const result = await setUp({}, {turns: [{expect: {tools_exclude: ['web_search']}, text: 'No search here.'}]})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('No search here.')
    expect(result.stderr.replaceAll(/\s+/g, ' ')).toContain(
      'web_search: ignored: this setting is only read from your user settings',
    )
  })

  it('tells the model which provider could not be reached and what to check', async () => {
    const {url} = await startSearx()
    await new Promise<void>((resolve) => searx!.close(() => resolve()))
    searx = undefined
    const result = await setUp(
      {permissions: {web_search: 'allow'}, web_search: {provider: 'searxng', url}},
      {
        turns: [
          {tool_calls: [{arguments: {query: 'python'}, name: 'web_search'}]},
          {
            expect: {
              tool_result_contains: `the searxng search provider at ${url} could not be reached (the connection was refused): check that it is running and that web_search.url in the user settings points at it`,
            },
            text: 'Search is down.',
          },
        ],
      },
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Search is down.')
  })
})
