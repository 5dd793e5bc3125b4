import {createInterface} from 'node:readline'
import type {Readable, Writable} from 'node:stream'

import {RPC_ERRORS, rpcError} from '../../core/protocol/json-rpc.js'
import type {AppServer} from './app-server.js'

/**
 * The app server over stdio: one connection, one JSON-RPC message per line both ways (stdout
 * carries nothing else; logs go to stderr). Lines are handled as they come, so a client's answer
 * to a permission request is read while its turn/start is still being answered. Resolves when
 * the input ends: the connection closes (its turn interrupted, its permission requests denied).
 */
export async function serveStdio(server: AppServer, input: Readable, output: Writable): Promise<void> {
  const send = (message: unknown) => void output.write(`${JSON.stringify(message)}\n`)
  const connection = server.connect('stdio', send)
  const inFlight = new Set<Promise<void>>()
  const lines = createInterface({crlfDelay: Number.POSITIVE_INFINITY, input})
  for await (const line of lines) {
    if (line.trim() === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      send(rpcError(null, RPC_ERRORS.parseError, 'Parse error: a line is one JSON-RPC message as JSON'))
      continue
    }

    const handled = server.handle(connection, value).then((response) => {
      if (response) send(response)
    })
    inFlight.add(handled)
    void handled.finally(() => inFlight.delete(handled))
  }

  connection.close()
  await Promise.all(inFlight)
}
