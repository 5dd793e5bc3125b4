import type {JSONRPCMessage} from '@modelcontextprotocol/sdk/types.js'

/** A line longer than this is not a message a server meant to send: it is dropped with an error. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024
const NEWLINE = 0x0a

export interface LineHandlers {
  message(message: JSONRPCMessage): void
  error(error: Error): void
}

/**
 * A stdio MCP server's output, one JSON-RPC message per line. Chunks without a line end are kept
 * as they came and joined once, when the line ends, so the work stays linear in the bytes however
 * the pipe cuts them (the SDK's ReadBuffer concatenates on every chunk).
 *
 * A line is parsed as JSON and must be a JSON-RPC 2.0 object; its shape is not checked here, since
 * the SDK's Protocol checks every message it is given against the JSON-RPC schemas and reports one
 * that fits none: checking here as well would validate each message twice. A line that is not
 * JSON-RPC (a server logging to stdout) is reported and skipped.
 */
export class StdioLineReader {
  private held: Buffer[] = []
  private heldBytes = 0

  constructor(private readonly handlers: LineHandlers) {}

  push(chunk: Buffer): void {
    let start = 0
    let newline = chunk.indexOf(NEWLINE)
    while (newline !== -1) {
      const tail = chunk.subarray(start, newline)
      const line = this.held.length === 0 ? tail : Buffer.concat([...this.held, tail])
      this.held = []
      this.heldBytes = 0
      this.line(line.toString('utf8'))
      start = newline + 1
      newline = chunk.indexOf(NEWLINE, start)
    }

    if (start === chunk.length) return
    this.heldBytes += chunk.length - start
    if (this.heldBytes > MAX_LINE_BYTES) {
      this.held = []
      this.heldBytes = 0
      this.handlers.error(
        new Error(`the server sent a line of over ${MAX_LINE_BYTES} bytes without a line end; it was dropped`),
      )
      return
    }

    this.held.push(chunk.subarray(start))
  }

  private line(text: string): void {
    const line = text.endsWith('\r') ? text.slice(0, -1) : text
    if (line.trim() === '') return
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch {
      this.handlers.error(new Error(`the server wrote a line that is not JSON: ${line.slice(0, 200)}`))
      return
    }

    if (
      typeof message !== 'object' ||
      message === null ||
      Array.isArray(message) ||
      (message as {jsonrpc?: unknown}).jsonrpc !== '2.0'
    ) {
      this.handlers.error(
        new Error(`the server wrote a line that is not a JSON-RPC 2.0 message: ${line.slice(0, 200)}`),
      )
      return
    }

    this.handlers.message(message as JSONRPCMessage)
  }
}
