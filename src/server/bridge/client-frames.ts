import {classifyMessage, type JsonRpcId, RPC_ERRORS, rpcError} from '../../core/protocol/json-rpc.js'

/**
 * What a client's text frame is: one JSON-RPC 2.0 message to forward (its text unchanged; `id`
 * set when it is a request, so a refusal can be answered), or the error frame to send back
 * instead (-32700 not JSON, -32600 not one message). A bad frame never reaches the app server.
 */
export type ClientFrame = {forward: string; requestId?: JsonRpcId} | {reply: string}

export function classifyClientFrame(text: string): ClientFrame {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return {reply: JSON.stringify(rpcError(null, RPC_ERRORS.parseError, 'Parse error: the frame is not JSON'))}
  }

  const classified = classifyMessage(value)
  if (classified.kind === 'invalid') return {reply: JSON.stringify(rpcError(classified.id, RPC_ERRORS.invalidRequest, `Invalid Request: ${classified.reason}`))}
  return classified.kind === 'request' ? {forward: text, requestId: classified.message.id} : {forward: text}
}
