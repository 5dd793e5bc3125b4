import type {ElicitationAnswer, ElicitationRequest} from '@hanzo-dev/sdk'
import * as z from 'zod'

import type {RpcConnection} from './rpc-connection.js'

// The server -> client request that carries an MCP server's question (elicitation) to the
// client driving the turn, whose user answers it as the chat's would.

export const ElicitationRequestParams = z
  .object({
    sessionId: z.string(),
    turnId: z.string(),
    server: z.string().describe('The MCP server that asks.'),
    message: z.string().describe("The server's words: show them as text, never as markup."),
    mode: z.enum(['form', 'url']),
    requestedSchema: z
      .record(z.string(), z.unknown())
      .optional()
      .describe("For form: MCP's restricted JSON Schema (one level of string, number, integer, boolean, enum fields)."),
    url: z.string().optional().describe('For url: the page to open, once the user agrees.'),
  })
  .meta({id: 'ElicitationRequestParams'})
export const ElicitationRequestResult = z
  .strictObject({
    action: z.enum(['accept', 'decline', 'cancel']),
    content: z
      .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
      .optional()
      .describe('For accept of a form: the answers, checked against the schema before the MCP server sees them.'),
  })
  .meta({id: 'ElicitationRequestResult'})

/**
 * Asks the turn's client with elicitation/request. No turn, no answer in time, an error or an
 * answer that is not one: `cancel` (the server hears the user did not answer), as MCP means it.
 */
export async function forwardElicitation(
  turn: {id: string; connection: RpcConnection; controller: AbortController} | undefined,
  sessionId: string,
  request: ElicitationRequest,
  timeoutMs: number,
): Promise<ElicitationAnswer> {
  if (!turn || turn.controller.signal.aborted) return {action: 'cancel'}
  const {signal, ...asked} = request
  const params = {...asked, sessionId, turnId: turn.id}
  // The turn's end, or the MCP server withdrawing its question: the client's answer would go nowhere.
  const interrupted = new Promise<undefined>((resolve) => {
    turn.controller.signal.addEventListener('abort', () => resolve(undefined), {once: true})
    signal?.addEventListener('abort', () => resolve(undefined), {once: true})
  })
  const answer = await Promise.race([turn.connection.request('elicitation/request', params, timeoutMs), interrupted])
  if (answer?.kind !== 'result') return {action: 'cancel'}
  const parsed = ElicitationRequestResult.safeParse(answer.result)
  return parsed.success ? parsed.data : {action: 'cancel'}
}
