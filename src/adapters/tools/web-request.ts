import {request as httpRequest, type IncomingMessage} from 'node:http'
import {request as httpsRequest} from 'node:https'
import type {LookupFunction} from 'node:net'
import {createBrotliDecompress, createGunzip, createInflate} from 'node:zlib'

import {ToolFailure} from './tool-failure.js'

/** One response: a redirect to follow (or not), or a body read in full. */
export type WebResponse =
  | {kind: 'redirect'; status: number; location: string}
  | {kind: 'body'; status: number; statusText: string; contentType: string; body: Buffer}

export interface WebRequest {
  url: URL
  /** The address the host was resolved to and checked at: the connection goes there and nowhere else. */
  address: {address: string; family: number}
  signal: AbortSignal
  /** Bytes of the body (decoded) past which the fetch is refused. */
  maxBytes: number
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * One GET, without following redirects (the caller checks each hop against the rules). The
 * connection is pinned to the address checked, so a second DNS answer cannot swap in another.
 */
export async function getOnce({address, maxBytes, signal, url}: WebRequest): Promise<WebResponse> {
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, [address])
    else callback(null, address.address, address.family)
  }

  const request = url.protocol === 'https:' ? httpsRequest : httpRequest
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = request(url, {
      headers: {
        accept: 'text/html, text/markdown, text/plain;q=0.9, */*;q=0.1',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': 'hanzo-dev web_fetch',
      },
      // A pooled connection could be one made to another address: each request opens its own.
      agent: false,
      lookup: pinned,
      method: 'GET',
      signal,
    })
    outgoing.once('response', resolve).once('error', reject).end()
  })
  const status = response.statusCode ?? 0
  const location = response.headers.location
  if (REDIRECTS.has(status) && location) {
    response.destroy()
    return {kind: 'redirect', location, status}
  }

  const declared = Number(response.headers['content-length'])
  if (declared > maxBytes) {
    response.destroy()
    throw new ToolFailure(tooLarge(url, maxBytes))
  }

  // Leaving the loop early (too large, aborted) must close the connection, not only the decoder.
  const body = await readCapped(decoded(response), url, maxBytes).finally(() => response.destroy())
  return {
    body,
    contentType: response.headers['content-type'] ?? '',
    kind: 'body',
    status,
    statusText: response.statusMessage ?? '',
  }
}

function decoded(response: IncomingMessage): NodeJS.ReadableStream {
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase()
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined
  if (!decoder) return response
  response.once('error', (error) => decoder.destroy(error))
  return response.pipe(decoder)
}

/** The body, counted as it is decoded: a small compressed answer may unpack to gigabytes. */
async function readCapped(stream: NodeJS.ReadableStream, url: URL, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of stream) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)
    size += bytes.length
    if (size > maxBytes) throw new ToolFailure(tooLarge(url, maxBytes))

    chunks.push(bytes)
  }

  return Buffer.concat(chunks)
}

function tooLarge(url: URL, maxBytes: number): string {
  return `${url.href} is larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the most web_fetch reads`
}
