import {createServer, type RequestListener} from 'node:http'
import type {AddressInfo} from 'node:net'

import {onTestFinished} from 'vitest'

import {createOpenAIClient, type OpenAIClientOptions} from '../../../src/adapters/api/openai-client.js'
import type {ApiClient, Message, ModelToolSpec, SendOptions, StreamEvent} from '../../../src/core/agent/types.js'
import type {Script} from '../../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../../src/testing/fake-model/server.js'

export const APIS = ['chat_completions', 'responses'] as const
export type Api = (typeof APIS)[number]

export const API_KEY = 'sk-test-0123456789abcdef'

/** A fake model for one test, closed when the test ends. */
export async function fakeModel(script: Script): Promise<FakeModel> {
  const model = await startFakeModel(script)
  onTestFinished(() => model.close())
  return model
}

/** A hand-written server for one test (what the fake model never sends); its base URL. */
export async function rawServer(listener: RequestListener): Promise<string> {
  const server = createServer(listener)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  onTestFinished(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  )
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

export function clientFor(model: FakeModel, api: Api, options: Partial<OpenAIClientOptions> = {}): ApiClient {
  return createOpenAIClient({api, apiKey: API_KEY, baseURL: model.url, ...options})
}

/** Every event of one model call. */
export async function collect(
  client: ApiClient,
  messages: readonly Message[] = [{content: 'hi', role: 'user'}],
  tools: readonly ModelToolSpec[] = [],
  options: Partial<SendOptions> = {},
): Promise<StreamEvent[]> {
  const events: StreamEvent[] = []
  for await (const event of client.sendMessage(messages, tools, {model: 'fake-model', ...options})) events.push(event)
  return events
}

/** The events without `raw`, which each test that cares looks at on its own. */
export function withoutRaw(events: StreamEvent[]): StreamEvent[] {
  return events.map((event) =>
    event.type === 'message_stop' ? {stopReason: event.stopReason, type: event.type} : event,
  )
}

/** The error event's ModelError; fails the test when the call did not end in one. */
export function errorOf(events: StreamEvent[]) {
  const last = events.at(-1)
  if (last?.type !== 'error') throw new Error(`expected the stream to end in an error, got ${JSON.stringify(events)}`)
  return last.error
}

export const READ_FILE: ModelToolSpec = {
  description: 'Read a file',
  inputSchema: {properties: {path: {type: 'string'}}, required: ['path'], type: 'object'},
  name: 'fs_read',
}

export const LIST_DIR: ModelToolSpec = {
  description: 'List a directory',
  inputSchema: {properties: {path: {type: 'string'}}, type: 'object'},
  name: 'fs_list',
}

/** The tool call the replay conversations hold. */
export const CALL = {arguments: '{"path":"a.ts"}', id: 'call_fake_1_1', input: {path: 'a.ts'}, name: 'fs_read'}
const CONVERSATIONS: Message[][] = [
  [{content: 'please fix a.ts', role: 'user'}],
  [
    {content: 'please fix a.ts', role: 'user'},
    {content: 'Reading.', role: 'assistant', toolCalls: [CALL]},
    {content: 'const a = 1', isError: false, role: 'tool', toolCallId: CALL.id, toolName: 'fs_read'},
  ],
]

/**
 * Runs a whole script of `requests` turns, for comparing a client over HTTP with the replay
 * client: the first two conversations, then the second again until the script ends. Errors are
 * compared by what the caller reads; the endpoint is the one thing a replay cannot have.
 */
export async function replaySession(client: ApiClient, requests: number): Promise<unknown[]> {
  const calls: unknown[] = []
  for (let i = 0; i < requests; i++) {
    const events = await collect(client, CONVERSATIONS[Math.min(i, 1)], [READ_FILE])
    calls.push(
      events.map((event) =>
        event.type === 'error'
          ? {code: event.error.code, message: event.error.message, status: event.error.status, type: 'error'}
          : event,
      ),
    )
  }

  return calls
}
