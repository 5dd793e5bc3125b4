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

/** The request's body; a BodyTooLargeError as soon as it passes `limit` bytes (the rest is not read). */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'])
  if (declared > limit) throw new BodyTooLargeError(limit)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limit) throw new BodyTooLargeError(limit)
    chunks.push(chunk as Buffer)
  }

  return Buffer.concat(chunks)
}
