import {classifyMessage, type JsonRpcId, RPC_ERRORS, rpcError} from '../../core/protocol/json-rpc.js'

/**
 * What a client's text frame is: one JSON-RPC 2.0 message to forward (its text unchanged; `id`
 * set when it is a request, so a refusal can be answered), or the error frame to send back
 * instead (-32700 not JSON, -32600 not one message, -32602 a session id that is not whole). A
 * bad frame never reaches the app server.
 */
export type ClientFrame = {forward: string; requestId?: JsonRpcId} | {reply: string}

/** Session ids are UUIDs. */
const SESSION_ID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i

export function classifyClientFrame(text: string): ClientFrame {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return {reply: JSON.stringify(rpcError(null, RPC_ERRORS.parseError, 'Parse error: the frame is not JSON'))}
  }

  const classified = classifyMessage(value)
  if (classified.kind === 'invalid')
    return {
      reply: JSON.stringify(
        rpcError(classified.id, RPC_ERRORS.invalidRequest, `Invalid Request: ${classified.reason}`),
      ),
    }
  if (classified.kind !== 'request') return {forward: text}
  const {id, params} = classified.message
  // The app server accepts the start of a session id; through the bridge that would let any
  // owner find sessions by guessing a few characters (another owner's full id in the refusal,
  // or a session saved without an owner). A browser client always has the whole id.
  const sessionId = (params as {sessionId?: unknown} | undefined)?.sessionId
  if (typeof sessionId === 'string' && !SESSION_ID.test(sessionId)) {
    return {
      reply: JSON.stringify(
        rpcError(
          id,
          RPC_ERRORS.invalidParams,
          'Invalid params: through the bridge, sessionId must be a whole session id (a UUID, as session/start and session/list give it)',
        ),
      ),
    }
  }

  return {forward: text, requestId: id}
}
