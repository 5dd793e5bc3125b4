/** A JSON-RPC 2.0 id: what an answer to a request must carry back. */
export type JsonRpcId = string | number | null

/**
 * What a client's text frame is: one JSON-RPC 2.0 message to forward (its text unchanged; `id`
 * set when it is a request, so a refusal can be answered), or the error frame to send back
 * instead (-32700 not JSON, -32600 not one message). A bad frame never reaches the app server.
 */
export type ClientFrame = {forward: string; requestId?: JsonRpcId} | {reply: string}

export const PARSE_ERROR = -32_700
export const INVALID_REQUEST = -32_600
export const INTERNAL_ERROR = -32_603

export function classifyClientFrame(text: string): ClientFrame {
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch {
    return {reply: errorFrame(null, PARSE_ERROR, 'Parse error: the frame is not JSON')}
  }

  if (Array.isArray(message)) return {reply: errorFrame(null, INVALID_REQUEST, 'Invalid Request: send one JSON-RPC message per frame (no batches)')}
  if (typeof message !== 'object' || message === null) return {reply: errorFrame(null, INVALID_REQUEST, 'Invalid Request: a JSON-RPC message is an object')}
  const m = message as Record<string, unknown>
  const id = isId(m.id) ? m.id : null
  if (m.jsonrpc !== '2.0') return {reply: errorFrame(id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')}
  if ('id' in m && !isId(m.id)) return {reply: errorFrame(null, INVALID_REQUEST, 'Invalid Request: "id" must be a string, a number or null')}
  if ('method' in m) {
    if (typeof m.method !== 'string' || m.method.length === 0) return {reply: errorFrame(id, INVALID_REQUEST, 'Invalid Request: "method" must be a non-empty string')}
    if ('params' in m && (typeof m.params !== 'object' || m.params === null)) return {reply: errorFrame(id, INVALID_REQUEST, 'Invalid Request: "params" must be an object or an array')}
    return 'id' in m ? {forward: text, requestId: id} : {forward: text}
  }

  // A response to a server->client request (a permission answer): exactly one of result and error.
  if ('id' in m && 'result' in m !== 'error' in m) return {forward: text}
  return {reply: errorFrame(id, INVALID_REQUEST, 'Invalid Request: neither a request ("method") nor a response ("result" or "error")')}
}

export function errorFrame(id: JsonRpcId, code: number, message: string): string {
  return JSON.stringify({error: {code, message}, id, jsonrpc: '2.0'})
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || value === null || (typeof value === 'number' && Number.isFinite(value))
}
