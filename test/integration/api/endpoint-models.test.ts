import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'

import {describe, expect, it} from 'vitest'

import {listEndpointModels, modelListEndpoint, NO_MODEL_LIST} from '../../../src/adapters/endpoint-models.js'
import {ModelError} from '../../../src/core/agent/types.js'
import {API_KEY, fakeModel, rawServer} from './helpers.js'

const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the listing should have failed'),
    (error: unknown) => error,
  )

/** A base URL where nothing listens: a port that was free a moment ago. */
async function closedPort(): Promise<string> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return `http://127.0.0.1:${port}/v1`
}

describe('listEndpointModels', () => {
  it("lists an OpenAI-compatible server's models newest first, then by id, with what the server says of each", async () => {
    const model = await fakeModel({
      models: [
        'llama-3',
        {context_window: 131_072, created: 1_700_000_500, id: 'qwen3:8b', owned_by: 'library'},
        'gemma-2',
        {created: 1_700_000_900, id: 'gpt-oss'},
      ],
      turns: [],
    })
    const models = await listEndpointModels({apiKey: API_KEY, baseURL: `${model.url}/`, wire: 'openai'})
    expect(models).toEqual([
      {created: 1_700_000_900, id: 'gpt-oss', ownedBy: 'fake-model'},
      {contextWindow: 131_072, created: 1_700_000_500, id: 'qwen3:8b', ownedBy: 'library'},
      {created: 0, id: 'gemma-2', ownedBy: 'fake-model'},
      {created: 0, id: 'llama-3', ownedBy: 'fake-model'},
    ])
    expect(model.requests).toEqual([
      expect.objectContaining({
        headers: expect.objectContaining({authorization: 'Bearer [redacted]'}),
        method: 'GET',
        path: '/v1/models',
      }),
    ])
  })

  it("follows Anthropic's pages (has_more, last_id) with x-api-key and anthropic-version, whatever /v1 the base URL ends in", async () => {
    const ids = Array.from({length: 1005}, (_, i) => `claude-${String(i).padStart(4, '0')}`)
    const model = await fakeModel({models: ids.map((id, i) => ({created: 1_700_000_000 + i, id})), turns: []})
    const models = await listEndpointModels({apiKey: API_KEY, baseURL: model.url, wire: 'anthropic'})
    expect(models).toHaveLength(1005)
    expect(models[0]).toEqual({created: 1_700_001_004, id: 'claude-1004'})
    expect(models.at(-1)?.id).toBe('claude-0000')
    expect(model.requests.map((r) => r.path)).toEqual(['/v1/models', '/v1/models'])
    for (const request of model.requests) {
      expect(request.headers['x-api-key']).toBe('[redacted]')
      expect(request.headers['anthropic-version']).toBe('2023-06-01')
      expect(request.headers.authorization).toBeUndefined()
    }
  })

  it('sends an OAuth login to Anthropic as a bearer token, as a run does', async () => {
    const endpoint = modelListEndpoint({
      api: 'anthropic_messages',
      apiKey: 'oauth-token',
      authScheme: 'bearer',
      baseURL: 'https://api.anthropic.com',
    })
    expect(endpoint).toEqual({
      baseURL: 'https://api.anthropic.com',
      headers: {authorization: 'Bearer oauth-token'},
      wire: 'anthropic',
    })
    expect(modelListEndpoint({api: 'responses', apiKey: 'k', baseURL: 'https://api.openai.com/v1'})).toEqual({
      apiKey: 'k',
      baseURL: 'https://api.openai.com/v1',
      wire: 'openai',
    })
  })

  it.each([
    ['openai', 401, 'Incorrect API key provided: sk-test-0123456789abcdef.', 'Incorrect API key provided: [redacted].'],
    ['anthropic', 403, 'Your key may not list models.', 'Your key may not list models.'],
    ['openai', 404, 'Not Found', 'Not Found'],
  ] as const)(
    'rejects an HTTP error (%s, %i) as a ModelError with the status and the server message, never the key',
    async (wire, status, message, shown) => {
      const model = await fakeModel({models: {body: {message}, status}, turns: []})
      const error = await rejection(listEndpointModels({apiKey: API_KEY, baseURL: model.url, wire}))
      expect(error).toBeInstanceOf(ModelError)
      expect(error).toMatchObject({message: shown, status})
    },
  )

  it('tells a server without a model list (a web page, JSON without data) apart from a failure', async () => {
    const page = await rawServer((_request, response) => {
      response.writeHead(200, {'content-type': 'text/html'}).end('<!doctype html><p>Welcome</p>')
    })
    const error = await rejection(listEndpointModels({baseURL: page, wire: 'openai'}))
    expect(error).toMatchObject({code: NO_MODEL_LIST, message: expect.stringContaining('an HTML page')})
    const other = await rawServer((_request, response) => {
      response.writeHead(200, {'content-type': 'application/json'}).end('{"models": []}')
    })
    expect(await rejection(listEndpointModels({baseURL: other, wire: 'openai'}))).toMatchObject({code: NO_MODEL_LIST})
  })

  it('names a closed port, a server that does not answer in time, and a base URL no request can go to', async () => {
    const silent = await rawServer(() => {})
    const url = new URL(silent)
    // Nothing answers: the listing gives up after its timeout.
    expect(await rejection(listEndpointModels({baseURL: silent, wire: 'openai'}, {timeoutMs: 50}))).toMatchObject({
      code: 'ETIMEDOUT',
    })
    const refused = await closedPort()
    expect(await rejection(listEndpointModels({baseURL: refused, wire: 'openai'}))).toMatchObject({
      code: 'ECONNREFUSED',
    })
    expect(
      await rejection(listEndpointModels({baseURL: `http://user:pw@${url.host}/v1`, wire: 'openai'})),
    ).toMatchObject({code: 'invalid_base_url'})
  })

  it("rejects with the caller's own reason when the caller aborts", async () => {
    const silent = await rawServer(() => {})
    const controller = new AbortController()
    const listing = listEndpointModels({baseURL: silent, wire: 'openai'}, {signal: controller.signal})
    controller.abort(new Error('closed by the picker'))
    expect(await rejection(listing)).toMatchObject({message: 'closed by the picker'})
  })
})
