import {describe, expect, it} from 'vitest'

import type {AppServerLink} from '../../src/server/bridge/app-client.js'
import {startBridge} from '../../src/server/bridge/bridge-server.js'
import {OriginAllowList} from '../../src/server/bridge/origins.js'
import {BridgeClient} from '../helpers/ws-client.js'

const ORIGIN = 'https://chat.hanzo.ai'

/** An app server that takes every connection and says nothing: the socket's lifetime is the bridge's alone. */
const silentApp: AppServerLink = {
  close() {},
  description: 'a silent app server',
  async openEvents() {
    return {close() {}, connectionId: 'connection-1', pause() {}, resume() {}}
  },
  rpcChannel: () => ({close() {}, post: async () => ({body: '', status: 202})}),
}

// In process, because through the CLI a token is accepted for 30 s past its `exp` (the verifier's
// clock tolerance, test/unit/server/bridge/jwt-verifier.test.ts) and its socket lives that long:
// here the verdict says when it ends, so no test sits out the tolerance.
describe('the bridge server (in process)', () => {
  it('closes a socket with 1008 when its token stops being valid', async () => {
    const bridge = await startBridge({
      app: silentApp,
      host: '127.0.0.1',
      log() {},
      maxMessageBytes: 65_536,
      origins: new OriginAllowList([ORIGIN]),
      pingIntervalMs: 60_000,
      port: 0,
      verify: async () => ({expiresAt: Date.now() + 200, ok: true, owner: 'alice'}),
    })
    try {
      const client = await BridgeClient.open(bridge.url, {origin: ORIGIN, token: 'header.payload.signature'})
      expect(await client.closed).toEqual({code: 1008, reason: 'token expired'})
    } finally {
      await bridge.close()
    }
  })
})
