import {mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {afterAll, afterEach, describe, expect, it, onTestFinished, vi} from 'vitest'

import {createOpenAIClient} from '../../../src/adapters/api/openai-client.js'
import {fsRead} from '../../../src/adapters/tools/index.js'
import {
  BackendSpanExporter,
  CLI_TRACING_SHUTDOWN_MS,
  configureCliTracing,
} from '../../../src/adapters/tracing-exporter.js'
import {Agent, Runner} from '../../../src/core/agent/index.js'
import {activeTraceProcessors} from '../../../src/core/tracing/provider.js'
import {
  BatchTraceProcessor,
  type BatchTraceProcessorOptions,
  setTraceProcessors,
  type SpanJson,
  type TraceJson,
} from '../../../src/core/tracing/index.js'
import {startFakeModel} from '../../../src/testing/fake-model/server.js'
import {deadUrl, type Receiver, startReceiver} from './receiver.js'

// What the run reads, writes and authenticates with: none of it may reach the collector's body.
const COLLECTOR_KEY = 'collector-key-7a7a'
const MODEL_KEY = 'sk-model-key-9b9b'
const INSTRUCTIONS = 'INSTRUCTIONS-c0ffee'
const PROMPT = 'PROMPT-beef01'
const FILE_NAME = 'notes-d00d.txt'
const FILE_CONTENT = 'FILE-CONTENT-5ecre7'
const REPLY = 'REPLY-f1na1'
// The trace, then the spans as they end: generation, fs_read, generation, agent.
const ITEMS_PER_RUN = 5

const workspace = mkdtempSync(join(tmpdir(), 'hanzo-tracing-'))
writeFileSync(join(workspace, FILE_NAME), FILE_CONTENT)
afterAll(() => rmSync(workspace, {force: true, recursive: true}))
afterEach(() => setTraceProcessors([]))

/** One run against the fake model: the model reads a file with fs_read, then answers. */
async function runWithTool() {
  const model = await startFakeModel({
    turns: [
      {
        expect: {last_user_contains: PROMPT},
        tool_calls: [{arguments: {path: FILE_NAME}, name: 'fs_read'}],
        usage: {input_tokens: 30, output_tokens: 5},
      },
      {expect: {tool_result_contains: FILE_CONTENT}, text: REPLY, usage: {input_tokens: 60, output_tokens: 4}},
    ],
  })
  onTestFinished(() => model.close())
  const client = createOpenAIClient({api: 'chat_completions', apiKey: MODEL_KEY, baseURL: model.url})
  const agent = new Agent({instructions: INSTRUCTIONS, model: 'fake-model', name: 'file-reader', tools: [fsRead]})
  return Runner.run(agent, PROMPT, {client, cwd: workspace, sessionId: 'session-42'})
}

function traceTo(url: string, options: BatchTraceProcessorOptions = {}, timeoutMs?: number): BatchTraceProcessor {
  const processor = new BatchTraceProcessor(
    new BackendSpanExporter({apiKey: COLLECTOR_KEY, endpoint: url, timeoutMs}),
    options,
  )
  setTraceProcessors([processor])
  return processor
}

function expectOneRun(receiver: Receiver) {
  const items = receiver.items()
  const traces = items.filter((item): item is TraceJson => item.object === 'trace')
  const spans = items.filter((item): item is SpanJson => item.object === 'trace.span')
  expect(traces).toEqual([expect.objectContaining({group_id: 'session-42', workflow_name: 'file-reader'})])
  const [agent] = spans.filter((span) => span.span_data.type === 'agent')
  expect(agent).toMatchObject({
    parent_id: null,
    span_data: {model: 'fake-model', name: 'file-reader', tools: ['fs_read']},
    trace_id: traces[0].id,
  })
  expect(spans.filter((span) => span.span_data.type === 'generation')).toEqual([
    expect.objectContaining({
      parent_id: agent.id,
      span_data: expect.objectContaining({usage: {input_tokens: 30, output_tokens: 5}}),
    }),
    expect.objectContaining({
      parent_id: agent.id,
      span_data: expect.objectContaining({usage: {input_tokens: 60, output_tokens: 4}}),
    }),
  ])
  expect(spans.filter((span) => span.span_data.type === 'function')).toEqual([
    expect.objectContaining({
      error: null,
      parent_id: agent.id,
      span_data: {is_error: false, name: 'fs_read', output_chars: expect.any(Number), type: 'function'},
    }),
  ])
  expect(items).toHaveLength(ITEMS_PER_RUN)
  const body = JSON.stringify(items)
  for (const content of [COLLECTOR_KEY, MODEL_KEY, INSTRUCTIONS, PROMPT, FILE_NAME, FILE_CONTENT, REPLY])
    expect(body).not.toContain(content)
}

describe('a traced Runner.run, exported to a real local collector', () => {
  it('sends the trace and its agent, generation and function spans, with the bearer key and without content', async () => {
    const receiver = await startReceiver()
    const processor = traceTo(receiver.url)
    expect((await runWithTool()).finalOutput).toBe(REPLY)
    await processor.forceFlush()
    expect(receiver.batches.map((batch) => batch.authorization)).toEqual([`Bearer ${COLLECTOR_KEY}`])
    expectOneRun(receiver)
    expect(processor.dropped).toBe(0)
  })

  it('a collector that hangs: the run completes, the queue stays bounded, shutdown returns by its timeout', async () => {
    const receiver = await startReceiver(['hang'])
    // Each item is its own batch, so exports start (and hang) during the run.
    const processor = traceTo(receiver.url, {maxBatchSize: 1, maxQueueSize: 2}, 600_000)
    expect((await runWithTool()).finalOutput).toBe(REPLY)
    // The trace is in flight, two spans wait, two did not fit.
    expect(processor.dropped).toBe(2)
    await processor.shutdown(200)
    expect(processor.dropped).toBe(ITEMS_PER_RUN)
    expect(receiver.batches).toEqual([])
  })

  it('a collector that is down or answers 500: the run completes and every item is counted as dropped', async () => {
    for (const url of [await deadUrl(), (await startReceiver([500])).url]) {
      const processor = traceTo(url, {maxBatchSize: 1})
      expect((await runWithTool()).finalOutput).toBe(REPLY)
      await processor.shutdown(200)
      expect(processor.dropped).toBe(ITEMS_PER_RUN)
    }
  })
})

describe('configureCliTracing', () => {
  it('stays off without tracing.endpoint, or with HANZO_TRACING_DISABLED=1 or true', async () => {
    const {url} = await startReceiver()
    expect(configureCliTracing({}, {})).toBeUndefined()
    expect(configureCliTracing({tracing: {api_key: COLLECTOR_KEY}}, {})).toBeUndefined()
    expect(configureCliTracing({tracing: {endpoint: url}}, {HANZO_TRACING_DISABLED: '1'})).toBeUndefined()
    expect(configureCliTracing({tracing: {endpoint: url}}, {HANZO_TRACING_DISABLED: 'true'})).toBeUndefined()
    expect(activeTraceProcessors()).toEqual([])
  })

  it('sends the runs to tracing.endpoint with tracing.api_key, delivered by shutdown()', async () => {
    const receiver = await startReceiver()
    const tracing = configureCliTracing(
      {tracing: {api_key: COLLECTOR_KEY, endpoint: receiver.url}},
      {HANZO_TRACING_DISABLED: '0'},
    )!
    await runWithTool()
    await tracing.shutdown()
    expect(receiver.batches.map((batch) => batch.authorization)).toEqual([`Bearer ${COLLECTOR_KEY}`])
    expectOneRun(receiver)
    expect(tracing.dropped).toBe(0)
  })

  it('shutdown() returns when the collector never answers, counting what was lost', async () => {
    const receiver = await startReceiver(['hang'])
    const tracing = configureCliTracing({tracing: {endpoint: receiver.url}}, {})!
    await runWithTool()
    // The export hangs for real; only shutdown's own timer is faked, so its budget passes at once.
    vi.useFakeTimers({shouldClearNativeTimers: true, toFake: ['setTimeout', 'clearTimeout']})
    try {
      const shutdown = tracing.shutdown()
      await vi.advanceTimersByTimeAsync(CLI_TRACING_SHUTDOWN_MS)
      await shutdown
    } finally {
      vi.useRealTimers()
    }

    expect(tracing.dropped).toBe(ITEMS_PER_RUN)
  })
})
