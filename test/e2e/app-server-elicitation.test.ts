import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {httpEverything} from '../../plugins/mcp/test/mcp-fixtures.js'
import {offSchema, StdioClient} from '../helpers/app-server-client.js'
import {makeSandbox, type Sandbox} from '../helpers/cli.js'

const ELICIT = 'mcp__everything__trigger-elicitation-request'

/** An MCP server's question in an app-server session goes to the client driving the turn, and its answer back. */
describe('app-server: elicitation/request', () => {
  let box: Sandbox
  let project: string
  let server: Awaited<ReturnType<typeof httpEverything>>

  beforeAll(async () => {
    server = await httpEverything('streamableHttp')
    box = makeSandbox('hanzo-app-elicit-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    mkdirSync(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({mcp_servers: {everything: {url: server.url}}, permissions: {[ELICIT]: 'allow'}}),
    )
  })
  afterAll(async () => {
    await server.close()
    box.cleanup()
  })

  it("forwards the server's form to the client and the client's answer to the server", async () => {
    const script = join(box.home, 'elicit.json')
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          {expect: {tools_include: [ELICIT]}, tool_calls: [{name: ELICIT}]},
          {expect: {tool_result_contains: '"name": "Grace"'}, text: 'Got your name.'},
        ],
      }),
    )
    const client = new StdioClient(['--fake-model', script], {cwd: project, env: box.env})
    try {
      await client.request('initialize', {clientInfo: {name: 'test'}})
      const {sessionId} = (await client.request('session/start', {cwd: project, model: 'fake-model'})).result
      const {turnId} = (await client.request('turn/start', {input: 'ask me', sessionId})).result
      const ask = await client.next('elicitation/request')
      expect(ask.params).toMatchObject({
        message: 'Please provide inputs for the following fields:',
        mode: 'form',
        requestedSchema: {required: ['name'], type: 'object'},
        server: 'everything',
        sessionId,
        turnId,
      })
      await client.respond(ask.id!, {action: 'accept', content: {check: true, name: 'Grace'}})
      const done = await client.next('turn/completed', (p) => p.turnId === turnId)
      expect(done.params).toMatchObject({finalOutput: 'Got your name.', stopReason: 'completed'})
      expect(offSchema(client)).toEqual([])
    } finally {
      await client.close()
    }
  })
})
