import {createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse} from 'node:http'
import type {AddressInfo} from 'node:net'
import {setTimeout as sleep} from 'node:timers/promises'

import {isRecord, REDACTED} from '@hanzo-dev/sdk/settings'

import {anthropicFormat} from './anthropic-format.js'
import {chatFormat} from './chat-format.js'
import {responsesFormat} from './responses-format.js'
import {modelsAnswer} from './models-route.js'
import {withReplyLimit} from './request-view.js'
import {loadScript, type ScriptSource} from './script.js'
import {type Outcome, ScriptCursor} from './script-cursor.js'
import {type FakeWireFormat, httpErrorBody} from './wire-format.js'

/** A request as the fake model received it. */
export interface RecordedRequest {
  method: string
  /** From `/`, e.g. `/v1/chat/completions`. */
  path: string
  /** Lower-case names; credentials (`authorization`, `api-key`, `x-api-key`) redacted. */
  headers: Record<string, string>
  /** The parsed JSON body; the raw text when it is not JSON; undefined when empty. */
  body: unknown
}

export interface FakeModel {
  /** The base URL, ending in `/v1`, as `base_url` / `HANZO_BASE_URL` take it. */
  url: string
  /** Every request so far, in order of arrival. */
  requests: RecordedRequest[]
  close(): Promise<void>
}

export interface FakeModelOptions {
  /** Default 0: a free port. */
  port?: number
}

const CREDENTIAL_HEADERS = new Set(['authorization', 'api-key', 'x-api-key', 'proxy-authorization'])
const FORMATS: Record<string, FakeWireFormat> = {
  '/v1/chat/completions': chatFormat,
  '/v1/messages': anthropicFormat,
  '/v1/responses': responsesFormat,
}

/**
 * The fake model: a real HTTP server on 127.0.0.1 answering from a script with the OpenAI and
 * Anthropic wire formats (see README.md). Each model request takes the next turn, whichever API it uses.
 */
export async function startFakeModel(source: ScriptSource, options: FakeModelOptions = {}): Promise<FakeModel> {
  const script = await loadScript(source)
  const cursor = new ScriptCursor(script)
  const requests: RecordedRequest[] = []
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // A bug here must reach the test as a failed request, not as a hang.
      if (!response.headersSent)
        sendError(
          response,
          500,
          `fake-model: ${error instanceof Error ? error.message : String(error)}`,
          'server_error',
        )
      else response.destroy()
    })
  })

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request)
    const url = new URL(request.url ?? '/', 'http://fake')
    const {pathname: path} = url
    const body = parseBody(text)
    requests.push({body, headers: redactHeaders(request.headers), method: request.method ?? 'GET', path})
    if (request.method === 'GET' && path === '/v1/models') {
      const listing = modelsAnswer(script, url, request.headers)
      response.writeHead(listing.status, listing.headers).end(listing.text)
      return
    }

    const format = FORMATS[path]
    if (request.method !== 'POST' || !format) {
      sendError(
        response,
        404,
        `fake-model: no route ${request.method} ${path}; it serves GET /v1/models, POST /v1/chat/completions, POST /v1/responses and POST /v1/messages`,
        'invalid_request_error',
      )
      return
    }

    if (!isRecord(body)) {
      sendJson(
        response,
        400,
        format.errorBody(
          {
            code: null,
            message: 'fake-model: the request body is not a JSON object',
            param: null,
            type: 'invalid_request_error',
          },
          400,
        ),
      )
      return
    }

    // Anthropic's API keys travel in x-api-key; `authorization_sha256` checks whichever credential came.
    const authorization = request.headers.authorization ?? singleHeader(request.headers['x-api-key'])
    await answer(response, cursor.answer({...withReplyLimit(format.view(body), body), authorization}), format, body)
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const {port} = server.address() as AddressInfo
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    requests,
    url: `http://127.0.0.1:${port}/v1`,
  }
}

async function answer(
  response: ServerResponse,
  outcome: Outcome,
  format: FakeWireFormat,
  request: Record<string, unknown>,
): Promise<void> {
  if (outcome.kind === 'http_error') {
    const {contentType, text} = httpErrorBody(format, outcome.status, outcome.body)
    response.writeHead(outcome.status, {'content-type': contentType, ...outcome.headers}).end(text)
    return
  }

  if (outcome.kind === 'error_body') {
    sendJson(response, 200, format.errorBody(outcome.error))
    return
  }

  const {reply} = outcome
  if (request.stream !== true) {
    // Without a stream to break, a stream error is the 200 error body it would have been.
    sendJson(response, 200, reply.streamError ? format.errorBody(reply.streamError) : format.json(reply))
    return
  }

  response.writeHead(200, {'cache-control': 'no-cache', 'content-type': 'text/event-stream; charset=utf-8'})
  response.flushHeaders()
  for (const event of format.stream(reply, request)) {
    if (reply.delayMs > 0) await sleep(reply.delayMs)
    // The client went away (an abort): nobody reads the rest.
    if (response.destroyed) return
    response.write(event)
  }

  response.end()
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {'content-type': 'application/json'}).end(JSON.stringify(body))
}

function sendError(response: ServerResponse, status: number, message: string, type: string): void {
  sendJson(response, status, {error: {code: null, message, param: null, type}})
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function parseBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/** Credentials never reach a test's output or a recorded fixture; the scheme stays, to show which was sent. */
function redactHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    const text = Array.isArray(value) ? value.join(', ') : value
    result[name] = CREDENTIAL_HEADERS.has(name) ? text.replace(/^(bearer |basic |token )?.*$/is, `$1${REDACTED}`) : text
  }

  return result
}
