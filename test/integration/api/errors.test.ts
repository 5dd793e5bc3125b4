import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'

import {describe, expect, it} from 'vitest'

import {createOpenAIClient} from '../../../src/adapters/api/openai-client.js'
import {ModelError} from '../../../src/core/agent/types.js'
import {API_KEY, APIS, clientFor, collect, errorOf, fakeModel, rawServer, withoutRaw} from './helpers.js'

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const {port} = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe.each(APIS)('model errors over %s (hanzo-agent rules)', (api) => {
  it.each([
    [401, 'Incorrect API key provided.', 'invalid_api_key'],
    [402, 'Your credit balance is too low.', 'insufficient_credits'],
    [403, 'Project does not have access to model fake-model.', 'model_not_found'],
  ])('fails at once on %i with the server message, without a retry', async (status, message, code) => {
    const model = await fakeModel({
      turns: [{body: {code, message, type: 'invalid_request_error'}, status}, {text: 'never sent'}],
    })
    const error = errorOf(await collect(clientFor(model, api)))
    expect(error).toBeInstanceOf(ModelError)
    expect(error).toMatchObject({code, message, status})
    expect(error.endpoint).toBe(`http://127.0.0.1:${new URL(model.url).port}/v1`)
    expect(model.requests).toHaveLength(1)
  })

  it.each([429, 500, 503])('retries %i twice, then fails with the server message', async (status) => {
    const turn = (n: number) => ({body: {code: 'busy', message: `overloaded (${n})`, type: 'server_error'}, status})
    const model = await fakeModel({turns: [turn(1), turn(2), turn(3)]})
    const error = errorOf(await collect(clientFor(model, api)))
    expect(error).toMatchObject({code: 'busy', message: 'overloaded (3)', status})
    expect(model.requests).toHaveLength(3)
  })

  it('retries a 429 and streams the reply that follows', async () => {
    const model = await fakeModel({turns: [{status: 429}, {text: 'recovered'}]})
    const events = await collect(clientFor(model, api))
    expect(withoutRaw(events)).toEqual([
      {text: 'recovered', type: 'content_delta'},
      expect.objectContaining({type: 'usage'}),
      {stopReason: 'end_turn', type: 'message_stop'},
    ])
    expect(model.requests).toHaveLength(2)
  })

  it('sends a 500 once when maxRetries is 0', async () => {
    const model = await fakeModel({turns: [{status: 500}, {text: 'never sent'}]})
    const error = errorOf(await collect(clientFor(model, api, {maxRetries: 0})))
    expect(error).toMatchObject({message: 'fake-model: scripted HTTP 500', status: 500})
    expect(model.requests).toHaveLength(1)
  })

  it('fails with the server message when a 200 body is an error object', async () => {
    const model = await fakeModel({
      turns: [
        {
          error_body: {
            code: 'context_length_exceeded',
            message: 'The prompt is too long.',
            type: 'invalid_request_error',
          },
        },
      ],
    })
    const events = await collect(clientFor(model, api))
    expect(events).toHaveLength(1)
    expect(errorOf(events)).toMatchObject({
      code: 'context_length_exceeded',
      message: 'The prompt is too long.',
      status: undefined,
    })
  })

  it('yields the text that arrived, then fails with the message of an error inside the stream', async () => {
    const model = await fakeModel({
      turns: [{stream_error: {code: 'server_error', message: 'The model crashed mid-reply.'}, text: 'partial'}],
    })
    const events = await collect(clientFor(model, api))
    expect(events[0]).toEqual({text: 'partial', type: 'content_delta'})
    expect(events).toHaveLength(2)
    expect(errorOf(events)).toMatchObject({code: 'server_error', message: 'The model crashed mid-reply.'})
  })

  it('reads error bodies that are not OpenAI-shaped (vLLM, FastAPI, plain text)', async () => {
    const model = await fakeModel({
      turns: [
        {
          body: JSON.stringify({
            code: 400,
            message: 'max_tokens is too large',
            object: 'error',
            type: 'BadRequestError',
          }),
          status: 400,
        },
        {body: JSON.stringify({detail: 'Not authenticated'}), status: 401},
        {body: 'upstream connect error', status: 403},
      ],
    })
    const client = clientFor(model, api)
    expect(errorOf(await collect(client))).toMatchObject({
      code: 'BadRequestError',
      message: 'max_tokens is too large',
      status: 400,
    })
    expect(errorOf(await collect(client))).toMatchObject({message: 'Not authenticated', status: 401})
    expect(errorOf(await collect(client))).toMatchObject({message: 'upstream connect error', status: 403})
  })

  it('never puts the API key in an error message, even when the server echoes it', async () => {
    const model = await fakeModel({
      turns: [
        {body: {code: 'invalid_api_key', message: `Incorrect API key provided: ${API_KEY}.`}, status: 401},
        {stream_error: {message: `bad key ${API_KEY}`}},
      ],
    })
    const client = clientFor(model, api)
    for (const error of [errorOf(await collect(client)), errorOf(await collect(client))]) {
      expect(error.message).not.toContain(API_KEY)
      expect(error.message).toContain('[redacted]')
    }
  })

  it('names the base URL and what to check when nothing listens there', async () => {
    const port = await closedPort()
    const client = createOpenAIClient({api, apiKey: API_KEY, baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0})
    const error = errorOf(await collect(client))
    expect(error).toMatchObject({code: 'ECONNREFUSED', endpoint: `http://127.0.0.1:${port}/v1`, status: undefined})
    expect(error.message).toContain(`127.0.0.1:${port}`)
    expect(error.message).toMatch(/Is the server running\?.*base_url.*HANZO_BASE_URL/)
  })

  it('refuses a base URL with credentials in it, without repeating them', async () => {
    const client = createOpenAIClient({api, apiKey: API_KEY, baseURL: 'http://user:hunter2@127.0.0.1:8080/v1'})
    const error = errorOf(await collect(client))
    expect(error).toMatchObject({code: 'invalid_base_url', endpoint: 'http://[redacted]@127.0.0.1:8080/v1'})
    expect(error.message).toMatch(/user name or password.*HANZO_API_KEY/)
    expect(error.message).not.toContain('hunter2')
  })

  it('says the host does not resolve for an unknown host name', async () => {
    const client = createOpenAIClient({api, apiKey: API_KEY, baseURL: 'http://no-such-host.invalid/v1', maxRetries: 0})
    const error = errorOf(await collect(client))
    expect(error.message).toMatch(/no-such-host\.invalid.*does not resolve.*HANZO_BASE_URL/)
  })

  it('fails when the stream ends before the reply is complete', async () => {
    const baseURL = await rawServer((_request, response) => {
      response.writeHead(200, {'content-type': 'text/event-stream'})
      response.end(
        api === 'responses'
          ? 'event: response.created\ndata: {"type":"response.created","response":{}}\n\n'
          : 'data: {"choices":[{"index":0,"delta":{"content":"cut"}}]}\n\n',
      )
    })
    const events = await collect(createOpenAIClient({api, apiKey: API_KEY, baseURL}))
    expect(errorOf(events).message).toMatch(/ended before the reply was complete/)
  })

  it('says so when base_url serves a web page', async () => {
    const baseURL = await rawServer((_request, response) => {
      response
        .writeHead(200, {'content-type': 'text/html; charset=utf-8'})
        .end('<!doctype html><title>Dashboard</title>')
    })
    const error = errorOf(await collect(createOpenAIClient({api, apiKey: API_KEY, baseURL})))
    expect(error.message).toMatch(/sent an HTML page, not an OpenAI-compatible reply\. Check base_url/)
  })

  it('gives up with a timeout error when the server does not start answering within timeoutMs', async () => {
    const baseURL = await rawServer(() => {
      // Never answers.
    })
    const error = errorOf(
      await collect(createOpenAIClient({api, apiKey: API_KEY, baseURL, maxRetries: 0, timeoutMs: 50})),
    )
    expect(error).toMatchObject({code: 'ETIMEDOUT', status: undefined})
    expect(error.message).toMatch(/did not answer within 50 ms/)
  })
})
