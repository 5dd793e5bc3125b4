import type {HostContext} from '@hanzo-dev/sdk'
import type {Client} from '@modelcontextprotocol/sdk/client/index.js'
import type {ClientCapabilities} from '@modelcontextprotocol/sdk/types.js'

import {answerElicitation} from './elicitation.js'
import {answerSampling} from './sampling.js'

/** What a connection declares and answers of a server's requests to the client (elicitation, sampling). */
export interface ClientRequests {
  capabilities: ClientCapabilities
  /** Installs the handlers on a client before it connects: a server may ask as soon as it is initialized. */
  install(client: Client, server: string): Promise<void>
}

/**
 * Elicitation is always declared: where the host has no one to ask (a headless run) the answer
 * is a decline the user hears about, not a server that silently hides its tools. The SDK fills
 * in a form's defaults the user left (SEP-1034: `applyDefaults`). Sampling is declared only when
 * the session has a model to answer with.
 */
export function clientRequests(
  host: Pick<HostContext, 'elicit' | 'sample'>,
  warn: (message: string) => void,
): ClientRequests {
  return {
    capabilities: {
      elicitation: {form: {applyDefaults: true}, url: {}},
      ...(host.sample ? {sampling: {}} : {}),
    },
    async install(client, server) {
      const {CreateMessageRequestSchema, ElicitRequestSchema} = await import('@modelcontextprotocol/sdk/types.js')
      // The SDK aborts `extra.signal` when the server cancels its request: the question is withdrawn.
      client.setRequestHandler(ElicitRequestSchema, (request, extra) =>
        answerElicitation(server, request.params, host, warn, extra.signal),
      )
      if (host.sample)
        client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
          answerSampling(server, request.params, host.sample!, extra.signal),
        )
    },
  }
}
