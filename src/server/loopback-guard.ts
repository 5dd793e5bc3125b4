import {randomBytes, timingSafeEqual} from 'node:crypto'
import type {IncomingMessage} from 'node:http'

/**
 * The checks every loopback HTTP server of hanzo-dev makes before anything else (the ones whose
 * absence gave Claude Code's IDE socket its CVE): a Host of this address (DNS rebinding), and the
 * bearer token compared in constant time. The mcp plugin's `serve --http` has its own copy: a
 * plugin cannot import the core.
 */

/** A request whose Host is not `127.0.0.1:PORT` or `localhost:PORT` came through a name that points here (DNS rebinding). */
export function loopbackHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`
}

/** `Authorization: Bearer <token>`, compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const expected = Buffer.from(`Bearer ${token}`)
  const given = Buffer.from(authorization ?? '')
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/** A token for a server that was given none: 24 random bytes, URL-safe. */
export function randomToken(): string {
  return randomBytes(24).toString('base64url')
}

export class BodyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`Request body over ${limit} bytes`)
    this.name = 'BodyTooLargeError'
  }
}

/**
 * The request's (or a response's) body; a BodyTooLargeError as soon as it passes `limit` bytes (the
 * rest is not read). Events rather than `for await`: this runs once per message on both sides of
 * the bridge, and the async iterator costs a promise and a microtask hop per chunk.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    if (Number(req.headers['content-length']) > limit) {
      req.resume()
      reject(new BodyTooLargeError(limit))
      return
    }

    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size <= limit) {
        chunks.push(chunk)
        return
      }

      req.off('data', onData)
      req.resume()
      reject(new BodyTooLargeError(limit))
    }

    req.on('data', onData)
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)))
    req.once('error', reject)
    // A client that goes away mid-body ends the read as an error, not a wait without end.
    req.once('aborted', () => reject(new Error('the request was aborted')))
  })
}
