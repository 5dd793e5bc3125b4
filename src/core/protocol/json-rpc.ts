/** JSON-RPC 2.0 (https://www.jsonrpc.org/specification): the messages and the codes hanzo-dev's servers use. */

export type JsonRpcId = string | number

export interface JsonRpcErrorObject {
  code: number
  message: string
  data?: unknown
}

export interface JsonRpcRequest {
  jsonrpc: '2.0'
  id: JsonRpcId
  method: string
  params?: unknown
}

export interface JsonRpcNotification {
  jsonrpc: '2.0'
  method: string
  params?: unknown
}

export type JsonRpcResponse =
  | {jsonrpc: '2.0'; id: JsonRpcId | null; result: unknown}
  | {jsonrpc: '2.0'; id: JsonRpcId | null; error: JsonRpcErrorObject}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse

/** The spec's codes, and the app server's own (-32000 to -32099, the range the spec leaves to servers). */
export const RPC_ERRORS = {
  /** Not JSON. */
  parseError: -32_700,
  /** JSON, but not one JSON-RPC message. */
  invalidRequest: -32_600,
  methodNotFound: -32_601,
  invalidParams: -32_602,
  internalError: -32_603,
  /** A session or turn could not be started: the message says why (no model key, a hook stopped it). */
  serverError: -32_000,
  /** The session belongs to another owner (the bridge's `Hanzo-Owner`). */
  otherOwner: -32_001,
  /** No live or saved session has that id. */
  unknownSession: -32_002,
  /** The session is running a turn already. */
  sessionBusy: -32_003,
} as const

/** What one incoming value is, so a transport can route it without knowing the methods. */
export type ClassifiedMessage =
  | {kind: 'request'; message: JsonRpcRequest}
  | {kind: 'notification'; message: JsonRpcNotification}
  | {kind: 'response'; message: JsonRpcResponse}
  | {kind: 'invalid'; id: JsonRpcId | null; reason: string}

export function classifyMessage(value: unknown): ClassifiedMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return {
      id: null,
      kind: 'invalid',
      reason: Array.isArray(value)
        ? 'batches are not supported: send one message at a time'
        : 'a message is a JSON object',
    }
  }

  const message = value as Record<string, unknown>
  const id = isId(message.id) ? message.id : null
  if (message.jsonrpc !== '2.0') return {id, kind: 'invalid', reason: 'jsonrpc must be "2.0"'}
  if ('method' in message) {
    if (typeof message.method !== 'string' || message.method === '')
      return {id, kind: 'invalid', reason: 'method must be a non-empty string'}
    if (message.params !== undefined && (typeof message.params !== 'object' || message.params === null))
      return {id, kind: 'invalid', reason: 'params must be an object or an array'}
    if (!('id' in message)) return {kind: 'notification', message: message as unknown as JsonRpcNotification}
    if (!isId(message.id)) return {id: null, kind: 'invalid', reason: 'id must be a string or a number'}
    return {kind: 'request', message: message as unknown as JsonRpcRequest}
  }

  if ('result' in message || 'error' in message) {
    if (!isId(message.id) && message.id !== null)
      return {id: null, kind: 'invalid', reason: 'a response needs the id of its request'}
    return {kind: 'response', message: message as unknown as JsonRpcResponse}
  }

  return {id, kind: 'invalid', reason: 'neither a request (method) nor a response (result or error)'}
}

export function rpcResult(id: JsonRpcId | null, result: unknown): JsonRpcResponse {
  return {id, jsonrpc: '2.0', result}
}

export function rpcError(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  return {error: {code, message, ...(data === undefined ? {} : {data})}, id, jsonrpc: '2.0'}
}

/** An error a method handler throws to answer with a JSON-RPC error instead of -32603. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
    this.name = 'RpcError'
  }
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))
}
