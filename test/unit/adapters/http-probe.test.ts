import {createServer, type IncomingHttpHeaders, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {afterEach, describe, expect, it} from 'vitest'

import {probeUrl} from '../../../src/adapters/http-probe.js'

const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A server on 127.0.0.1; `answer` false: it takes the request and never answers. */
async function serve(answer: boolean, seen: IncomingHttpHeaders[] = []): Promise<string> {
  const server = createServer((request, response) => {
    seen.push(request.headers)
    if (answer) response.writeHead(401).end('{"error":"no key"}')
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

describe('probeUrl', () => {
  it('counts any answer, an error status too, and sends no credential, not even the URL user info', async () => {
    const seen: IncomingHttpHeaders[] = []
    const url = await serve(true, seen)
    expect(await probeUrl(url.replace('//', '//user:pw@') + '/v1')).toEqual({status: 401})
    expect(seen).toHaveLength(1)
    expect(seen[0].authorization).toBeUndefined()
  })

  it('names a closed port, a silent server (after its timeout) and a URL that is none', async () => {
    const closed = await serve(true)
    await new Promise((resolve) => servers.pop()!.close(resolve))
    expect(await probeUrl(closed)).toEqual({error: 'connection refused: nothing is listening there'})
    expect(await probeUrl(await serve(false), 200)).toEqual({error: 'no answer within 0.2 s'})
    expect(await probeUrl('not a url')).toEqual({error: 'not a valid URL'})
  })
})
