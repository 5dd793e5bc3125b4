import {describe, expect, it} from 'vitest'

import {BackendSpanExporter} from '../../../src/adapters/tracing-exporter.js'
import {Trace} from '../../../src/core/tracing/index.js'
import {deadUrl, startReceiver} from './receiver.js'

const KEY = 'tr-key-0123456789'
const trace = new Trace('workflow', [], 'group')
const span = trace.startSpan({model: 'm', type: 'generation', usage: {input_tokens: 1, output_tokens: 2}})
span.end()

async function failure(promise: Promise<void>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (error: unknown) => error as Error,
  )
  if (!error) throw new Error('the export succeeded')
  expect(error.message).not.toContain(KEY)
  return error.message
}

describe('BackendSpanExporter against a local collector', () => {
  it('posts {"data": [...]} as JSON with the key as a bearer token', async () => {
    const receiver = await startReceiver()
    await new BackendSpanExporter({apiKey: KEY, endpoint: receiver.url}).export([trace, span])
    expect(receiver.batches).toEqual([
      {authorization: `Bearer ${KEY}`, contentType: 'application/json', data: [trace.toJSON(), span.toJSON()]},
    ])
  })

  it('sends no authorization header without a key', async () => {
    const receiver = await startReceiver()
    await new BackendSpanExporter({endpoint: receiver.url}).export([span])
    expect(receiver.batches[0].authorization).toBeUndefined()
  })

  it('retries a 5xx or 429 and delivers', async () => {
    const receiver = await startReceiver([500, 429, 200])
    await new BackendSpanExporter({apiKey: KEY, endpoint: receiver.url}).export([span])
    expect(receiver.requests).toBe(3)
    expect(receiver.batches).toHaveLength(1)
  })

  it('gives up after maxAttempts, and at once on a 4xx that will not change', async () => {
    const failing = await startReceiver([503])
    expect(
      await failure(new BackendSpanExporter({apiKey: KEY, endpoint: failing.url, maxAttempts: 3}).export([span])),
    ).toMatch(/1 items not delivered .*: HTTP 503/)
    expect(failing.requests).toBe(3)
    const refusing = await startReceiver([401])
    expect(await failure(new BackendSpanExporter({apiKey: KEY, endpoint: refusing.url}).export([span]))).toMatch(
      /HTTP 401/,
    )
    expect(refusing.requests).toBe(1)
  })

  it('rejects, naming the cause, when nothing listens', async () => {
    const url = await deadUrl()
    expect(await failure(new BackendSpanExporter({apiKey: KEY, endpoint: `${url}?token=abc`}).export([span]))).toMatch(
      /not delivered to http:\/\/127\.0\.0\.1:\d+\/ingest: ECONNREFUSED$/,
    )
  })

  it('rejects when the collector does not answer within timeoutMs, or when the caller aborts', async () => {
    const receiver = await startReceiver(['hang'])
    expect(
      await failure(new BackendSpanExporter({apiKey: KEY, endpoint: receiver.url, timeoutMs: 200}).export([span])),
    ).toMatch(/no answer within 200 ms/)
    const controller = new AbortController()
    const exporting = new BackendSpanExporter({apiKey: KEY, endpoint: receiver.url}).export([span], controller.signal)
    controller.abort()
    expect(await failure(exporting)).toMatch(/cancelled/)
  })

  it('takes only http(s) endpoints', () => {
    expect(() => new BackendSpanExporter({endpoint: 'file:///tmp/spans'})).toThrow(TypeError)
    expect(() => new BackendSpanExporter({endpoint: 'not a url'})).toThrow(TypeError)
  })
})
