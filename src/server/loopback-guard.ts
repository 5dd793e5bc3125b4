import {randomBytes, timingSafeEqual} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import type {IncomingMessage} from 'node:http'

import {UserError} from '../core/errors.js'

/**
 * The checks every loopback HTTP server of hanzo-dev makes before anything else (the ones whose
 * absence gave Claude Code's IDE socket its CVE): a Host of this address (DNS rebinding), and the
 * bearer token compared in constant time. The mcp plugin's `serve --http` has its own copy: a
 * plugin cannot import the core.
 */

/** The port of `--listen 127.0.0.1:PORT` (`localhost:PORT`, or PORT alone): every server of hanzo-dev binds the loopback interface only, whatever a user writes. */
export function loopbackPort(value: string, who: string): number {
  const match = /^(?:([^:]+):)?(\d{1,5})$/.exec(value.trim())
  const port = Number(match?.[2])
  if (!match || port > 65_535)
    throw new UserError(`--listen ${value} is not HOST:PORT`, {
      exitCode: 2,
      hint: 'e.g. --listen 127.0.0.1:8787 (port 0 picks a free one)',
    })
  if (!['127.0.0.1', 'localhost', undefined].includes(match[1])) {
    throw new UserError(`--listen ${value}: ${who} binds 127.0.0.1 only`, {
      exitCode: 2,
      hint: 'give --listen 127.0.0.1:PORT; put a reverse proxy in front of it to reach it from elsewhere',
    })
  }

  return port
}

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

/** A secret's file, read for its first line; errors name the file and flag, never the content. */
export async function readSecretLine(file: string, flag: string): Promise<string> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UserError(`Cannot read ${flag} ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, {
      exitCode: 2,
      hint: 'check the path and its permissions',
    })
  }

  const line = text.split(/\r?\n/, 1)[0].trim()
  if (!line) throw new UserError(`${flag} ${file} is empty`, {exitCode: 2, hint: 'the secret goes on its first line'})
  return line
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
