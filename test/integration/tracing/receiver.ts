import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import {onTestFinished} from 'vitest'

import type {SpanJson, TraceJson} from '../../../src/core/tracing/index.js'

export interface ReceivedBatch {
  authorization?: string
  contentType?: string
  data: Array<TraceJson | SpanJson>
}

export interface Receiver {
  url: string
  /** The batches answered with 2xx. */
  batches: ReceivedBatch[]
  /** Every request, answered or not. */
  requests: number
  /** Everything it received, as one list. */
  items(): Array<TraceJson | SpanJson>
}

/**
 * A collector on 127.0.0.1 for one test. `answers` is the status of each request in turn (the
 * last one repeats); `hang` never answers. Closed, with its connections, when the test ends.
 */
export async function startReceiver(answers: Array<number | 'hang'> = [200]): Promise<Receiver> {
  const receiver: Receiver = {
    batches: [],
    items: () => receiver.batches.flatMap((batch) => batch.data),
    requests: 0,
    url: '',
  }
  const server = createServer((request, response) => {
    const answer = answers[Math.min(receiver.requests++, answers.length - 1)]
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      if (answer === 'hang') return
      if (answer < 300) {
        const {data} = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {data: ReceivedBatch['data']}
        receiver.batches.push({
          authorization: request.headers.authorization,
          contentType: request.headers['content-type'],
          data,
        })
      }

      response.writeHead(answer, {'content-type': 'application/json'}).end('{}')
    })
  })
  receiver.url = `${await listen(server)}/ingest`
  onTestFinished(() => close(server))
  return receiver
}

/** A URL where nothing listens: a port that was just given up. */
export async function deadUrl(): Promise<string> {
  const server = createServer()
  const url = await listen(server)
  await close(server)
  return `${url}/ingest`
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })
}
