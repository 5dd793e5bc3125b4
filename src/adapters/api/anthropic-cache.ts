import type {CacheControl, MessageParam, MessagesRequest} from './anthropic-types.js'

const BREAKPOINT: Required<CacheControl> = {cache_control: {type: 'ephemeral'}}

/**
 * The request with prompt-cache breakpoints, as Claude Code places them: after the tools, after
 * the system prompt, and on the last two user messages. The last one writes this turn's prefix
 * to the cache; the one before marks where the previous request ended (its own last user
 * message), so that request's cache entry is read even when this turn added more blocks than the
 * API looks back over (20). Blocks are copied, never changed: the history keeps its own.
 */
export function withCacheBreakpoints(request: MessagesRequest): MessagesRequest {
  const {system, tools} = request
  const userTurns = request.messages.flatMap((message, index) => (message.role === 'user' ? [index] : [])).slice(-2)
  return {
    ...request,
    messages: request.messages.map((message, index) => (userTurns.includes(index) ? marked(message) : message)),
    ...(system !== undefined && {
      system: typeof system === 'string' ? [{text: system, type: 'text' as const, ...BREAKPOINT}] : system,
    }),
    ...(tools && {tools: tools.map((tool, index) => (index === tools.length - 1 ? {...tool, ...BREAKPOINT} : tool))}),
  }
}

/** The message with its last block marked (a user message's blocks all take a breakpoint). */
function marked(message: MessageParam): MessageParam {
  const last = message.content.at(-1)
  return last ? {...message, content: [...message.content.slice(0, -1), {...last, ...BREAKPOINT}]} : message
}
