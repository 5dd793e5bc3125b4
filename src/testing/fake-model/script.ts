import {readFile} from 'node:fs/promises'

import {isRecord} from '@hanzo-dev/sdk/settings'

/** An error object as OpenAI sends it inside `{"error": ...}`; extra fields are sent as written. */
export interface ScriptErrorObject {
  message: string
  type?: string
  code?: string | null
  param?: string | null
  [field: string]: unknown
}

/** Checks on the request a turn answers; when one fails the server answers 400 saying which. */
export interface Expectations {
  /** The last user message contains this text. */
  last_user_contains?: string
  /** A system message (or the Responses `instructions`) contains this text. */
  system_contains?: string
  /** The history holds a tool result for this call id, or for a call of this tool name. */
  has_tool_result_for?: string
  /** `true`: every tool call in the history has a result and every result answers a call (what each API requires). */
  tool_calls_answered?: boolean
  /** Some tool result in the history contains this text. */
  tool_result_contains?: string
  /** The request offers tools with all of these names. */
  tools_include?: string[]
  /** The request offers no tool with any of these names (the chat's plan mode). */
  tools_exclude?: string[]
  /** Hex SHA-256 of the bearer credential the request carries: checks which key or token was sent without writing it down. */
  authorization_sha256?: string
  /** The request limits the reply to at most this many tokens (whatever the API calls the field). */
  max_output_tokens_at_most?: number
}

export interface ScriptToolCall {
  name: string
  /** An object is sent as its JSON; a string is sent exactly as written (to script invalid JSON). Default `{}`. */
  arguments?: Record<string, unknown> | string
  /** Default `call_fake_<turn>_<n>`. */
  id?: string
}

export interface ReplyTurn {
  expect?: Expectations
  text?: string
  tool_calls?: ScriptToolCall[]
  /** Default: about one token per four characters of the request's and the reply's text. */
  /**
   * `cache_read_tokens`: of the input, what the prompt cache served (reported as each API does);
   * `cache_write_tokens`: what it stored (Anthropic's `cache_creation_input_tokens`; OpenAI reports none).
   */
  usage?: {input_tokens?: number; output_tokens?: number; cache_read_tokens?: number; cache_write_tokens?: number}
  /** Text and arguments go in deltas of this many characters; default one delta each. */
  chunk_size?: number
  /** A pause before each streamed event, for demos and for aborting mid-stream. */
  delay_ms?: number
  /** The reply hit the output limit (`finish_reason: "length"`, Responses `incomplete`). */
  truncated?: boolean
  /** After the text (and tool calls), the stream breaks with this error in the API's style. */
  stream_error?: ScriptErrorObject
}

export interface HttpErrorTurn {
  expect?: Expectations
  status: number
  /** An error object (sent as `{"error": body}`) or a string sent as text/plain. Default: a message naming the status. */
  body?: ScriptErrorObject | string
  headers?: Record<string, string>
}

/** A 200 whose JSON body is `{"error": error_body}`. */
export interface ErrorBodyTurn {
  expect?: Expectations
  error_body: ScriptErrorObject
}

export type Turn = ReplyTurn | HttpErrorTurn | ErrorBodyTurn

/** One model `GET /v1/models` lists: its id, or the id with what a server may say of it. */
export type ListedModel = string | {id: string; created?: number; owned_by?: string; context_window?: number}

export interface Script {
  /** The model the replies name (and `GET /v1/models` lists, unless `models` says otherwise). Default `fake-model`. */
  model?: string
  /** What `GET /v1/models` answers: these models, or this HTTP error. Default: the script's `model`. */
  models?: ListedModel[] | Omit<HttpErrorTurn, 'expect'>
  turns: Turn[]
}

/** A script file's path, or the script itself. */
export type ScriptSource = string | Script

export const DEFAULT_MODEL = 'fake-model'

const TURN_KEYS = {
  error_body: ['expect', 'error_body'],
  reply: ['expect', 'text', 'tool_calls', 'usage', 'chunk_size', 'delay_ms', 'truncated', 'stream_error'],
  status: ['expect', 'status', 'body', 'headers'],
}
const EXPECT_KEYS = [
  'last_user_contains',
  'system_contains',
  'has_tool_result_for',
  'tool_calls_answered',
  'tool_result_contains',
  'tools_include',
  'tools_exclude',
  'authorization_sha256',
  'max_output_tokens_at_most',
]

/** A script that cannot run: says which file, which turn and what is wrong. */
export class ScriptError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ScriptError'
  }
}

export async function loadScript(source: ScriptSource): Promise<Script> {
  if (typeof source !== 'string') return parseScript(source)
  let value: unknown
  try {
    value = JSON.parse(await readFile(source, 'utf8'))
  } catch (error) {
    throw new ScriptError(`${source}: ${error instanceof SyntaxError ? 'not JSON: ' : ''}${(error as Error).message}`)
  }

  return parseScript(value, source)
}

/** Checks a script's shape up front, so a typo fails at start, not as a puzzling reply mid-test. */
export function parseScript(value: unknown, source = 'script'): Script {
  const fail = (where: string, problem: string): never => {
    throw new ScriptError(`${source}: ${where}: ${problem}`)
  }

  if (!isRecord(value)) fail('the script', 'must be an object {"model"?, "turns": [...]}')
  const script = value as Record<string, unknown>
  // `$comment` says what a script is for, as in the conformance vectors.
  for (const key of Object.keys(script))
    if (!['$comment', 'model', 'models', 'turns'].includes(key))
      fail(key, 'unknown key (expected "model", "models", "turns", "$comment")')
  if (script.model !== undefined && typeof script.model !== 'string') fail('model', 'must be a string')
  if (Array.isArray(script.models)) script.models.forEach((model, i) => checkListedModel(model, `models[${i}]`, fail))
  else if (script.models !== undefined) checkModelsError(script.models, fail)
  if (!Array.isArray(script.turns)) fail('turns', 'must be an array')
  ;(script.turns as unknown[]).forEach((turn, index) => checkTurn(turn, `turns[${index}]`, fail))
  return value as Script
}

type Fail = (where: string, problem: string) => never

function checkTurn(turn: unknown, where: string, fail: Fail): void {
  if (!isRecord(turn)) fail(where, 'must be an object')
  const t = turn as Record<string, unknown>
  const kind = 'status' in t ? 'status' : 'error_body' in t ? 'error_body' : 'reply'
  for (const key of Object.keys(t)) {
    if (!TURN_KEYS[kind].includes(key)) {
      fail(
        where,
        `unknown key "${key}" for ${kind === 'reply' ? 'a reply' : kind === 'status' ? 'an HTTP error (status)' : 'an error body (error_body)'}; allowed: ${TURN_KEYS[kind].join(', ')}`,
      )
    }
  }

  const check = (key: string, ok: (v: unknown) => boolean, expected: string) => {
    if (t[key] !== undefined && !ok(t[key])) fail(`${where}.${key}`, `must be ${expected}`)
  }

  check('text', (v) => typeof v === 'string', 'a string')
  check('tool_calls', (v) => Array.isArray(v), 'an array')
  if (Array.isArray(t.tool_calls))
    t.tool_calls.forEach((call, i) => checkToolCall(call, `${where}.tool_calls[${i}]`, fail))
  check(
    'usage',
    (v) =>
      isRecord(v) &&
      Object.entries(v).every(
        ([k, n]) =>
          ['input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens'].includes(k) && isCount(n),
      ),
    '{"input_tokens"?, "output_tokens"?, "cache_read_tokens"?, "cache_write_tokens"?} with counts',
  )
  check('chunk_size', (v) => isCount(v) && v > 0, 'a positive integer')
  check('delay_ms', isCount, 'a non-negative integer')
  check('truncated', (v) => typeof v === 'boolean', 'true or false')
  check('stream_error', isErrorObject, 'an error object with a "message" string')
  check('status', (v) => isCount(v) && v >= 400 && v <= 599, 'an HTTP error status (400-599)')
  check('body', (v) => typeof v === 'string' || isErrorObject(v), 'a string or an error object with a "message" string')
  check('headers', (v) => isRecord(v) && Object.values(v).every((h) => typeof h === 'string'), 'an object of strings')
  if (kind === 'error_body' && !isErrorObject(t.error_body))
    fail(`${where}.error_body`, 'must be an error object with a "message" string')
  if (t.expect !== undefined) checkExpect(t.expect, `${where}.expect`, fail)
}

const LISTED_MODEL_KEYS = ['id', 'created', 'owned_by', 'context_window']

function checkListedModel(model: unknown, where: string, fail: Fail): void {
  if (typeof model === 'string') return
  if (!isRecord(model) || typeof model.id !== 'string')
    fail(where, 'must be a model id or {"id": string, "created"?, "owned_by"?, "context_window"?}')
  const m = model as Record<string, unknown>
  for (const key of Object.keys(m))
    if (!LISTED_MODEL_KEYS.includes(key)) fail(where, `unknown key "${key}"; allowed: ${LISTED_MODEL_KEYS.join(', ')}`)
  for (const key of ['created', 'context_window'])
    if (m[key] !== undefined && !isCount(m[key])) fail(`${where}.${key}`, 'must be a non-negative integer')
  if (m.owned_by !== undefined && typeof m.owned_by !== 'string') fail(`${where}.owned_by`, 'must be a string')
}

/** `models` as an HTTP error: checked as a turn of that kind is, without `expect`. */
function checkModelsError(models: unknown, fail: Fail): void {
  if (!isRecord(models) || !('status' in models))
    fail('models', 'must be an array of models or an HTTP error {"status", "body"?, "headers"?}')
  if ('expect' in (models as Record<string, unknown>)) fail('models', 'unknown key "expect" for the model list')
  checkTurn(models, 'models', fail)
}

function checkToolCall(call: unknown, where: string, fail: Fail): void {
  if (!isRecord(call) || typeof call.name !== 'string')
    fail(where, 'must be {"name": string, "arguments"?: object or string, "id"?: string}')
  const c = call as Record<string, unknown>
  for (const key of Object.keys(c)) if (!['name', 'arguments', 'id'].includes(key)) fail(where, `unknown key "${key}"`)
  if (c.arguments !== undefined && typeof c.arguments !== 'string' && !isRecord(c.arguments))
    fail(`${where}.arguments`, 'must be an object or a string')
  if (c.id !== undefined && typeof c.id !== 'string') fail(`${where}.id`, 'must be a string')
}

function checkExpect(expect: unknown, where: string, fail: Fail): void {
  if (!isRecord(expect)) fail(where, 'must be an object')
  for (const [key, value] of Object.entries(expect as Record<string, unknown>)) {
    if (!EXPECT_KEYS.includes(key)) fail(where, `unknown check "${key}"; known: ${EXPECT_KEYS.join(', ')}`)
    if (key === 'tool_calls_answered') {
      if (value !== true) fail(`${where}.${key}`, 'must be true')
      continue
    }

    if (key === 'max_output_tokens_at_most') {
      if (!isCount(value)) fail(`${where}.${key}`, 'must be a whole number of tokens')
      continue
    }

    const list = key === 'tools_include' || key === 'tools_exclude'
    const ok = list
      ? Array.isArray(value) && value.every((name) => typeof name === 'string')
      : typeof value === 'string'
    if (!ok) fail(`${where}.${key}`, `must be ${list ? 'an array of strings' : 'a string'}`)
  }
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0
}

function isErrorObject(value: unknown): boolean {
  return isRecord(value) && typeof value.message === 'string'
}
