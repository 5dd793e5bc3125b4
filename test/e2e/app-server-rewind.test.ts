import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {RPC_ERRORS} from '../../src/core/protocol/json-rpc.js'
import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {offSchema, StdioClient} from '../helpers/app-server-client.js'
import {makeSandbox, type Sandbox} from '../helpers/cli.js'
import {treeHashes} from '../helpers/tree-hashes.js'

const SCRIPT: Script = {
  turns: [
    // prompt 1
    {
      tool_calls: [
        {arguments: {content: 'a2\n', path: 'a.txt'}, name: 'fs_write'},
        {arguments: {content: 'new\n', path: 'deep/er/new.txt'}, name: 'fs_write'},
      ],
    },
    {text: 'done 1'},
    // prompt 2
    {tool_calls: [{arguments: {new_string: 'a3', old_string: 'a2', path: 'a.txt'}, name: 'fs_edit'}]},
    {text: 'done 2'},
    // prompt 3, after the rewind to before prompt 2: its history is prompt 1's only.
    {expect: {last_user_contains: 'prompt 3', tool_calls_answered: true}, text: 'done 3'},
    // prompt 4, slow: a rewind while it runs is refused.
    {delay_ms: 1500, text: 'done 4'},
  ],
}

describe('hanzo-dev app-server: session/rewind', () => {
  // Under /var/tmp: the sandbox gives the session's commands a private /tmp.
  let box: Sandbox
  let project: string
  let model: FakeModel
  beforeEach(async () => {
    box = makeSandbox('hanzo-app-rewind-', '/var/tmp')
    project = join(box.home, 'project')
    mkdirSync(project)
    writeFileSync(join(project, 'a.txt'), 'a1\n')
    model = await startFakeModel(SCRIPT)
  })
  afterEach(async () => {
    await model.close()
    box.cleanup()
  })

  it('shows the plan on a dry run, restores the files and cuts the open session back, which carries on', async () => {
    const server = new StdioClient(['--base-url', model.url], {cwd: project, env: box.env})
    const {sessionId} = (await server.request('session/start', {model: 'm1', permissionMode: 'allow-all'})).result
    const turn = async (input: string) => {
      const {turnId} = (await server.request('turn/start', {input, sessionId})).result
      return (await server.next('turn/completed', (p) => p.turnId === turnId)).params
    }

    const original = treeHashes(project)
    expect(await turn('prompt 1')).toMatchObject({finalOutput: 'done 1', stopReason: 'completed'})
    const afterFirst = treeHashes(project)
    expect(await turn('prompt 2')).toMatchObject({finalOutput: 'done 2', stopReason: 'completed'})
    const afterSecond = treeHashes(project)

    const dry = await server.request('session/rewind', {dryRun: true, sessionId: sessionId.slice(0, 8), to: 1})
    expect(dry.error).toBeUndefined()
    expect(dry.result).toMatchObject({
      code: {created: ['deep/er/new.txt'], deleted: [], modified: ['a.txt'], notKept: []},
      conversation: {messagesBefore: 0},
      prompts: [
        {number: 1, text: 'prompt 1'},
        {number: 2, text: 'prompt 2'},
      ],
      rewound: null,
      sessionId,
      to: 1,
    })
    expect(treeHashes(project)).toEqual(afterSecond)

    // Default: to before the last prompt, code and conversation.
    const rewound = (await server.request('session/rewind', {sessionId})).result
    expect(rewound).toMatchObject({
      rewound: {code: {created: [], deleted: [], modified: ['a.txt'], notKept: []}, conversation: true},
      to: 2,
    })
    expect(treeHashes(project)).toEqual(afterFirst)

    // The open session carries on from the cut history: prompt 2 is not sent again.
    expect(await turn('prompt 3')).toMatchObject({finalOutput: 'done 3', stopReason: 'completed'})
    const sent = JSON.stringify(model.requests.at(-1)!.body)
    expect(sent).toContain('prompt 1')
    expect(sent).not.toContain('prompt 2')
    const read = (await server.request('session/read', {sessionId})).result
    expect(read.messages.flatMap((m) => (m.role === 'user' ? [m.content] : []))).toEqual(['prompt 1', 'prompt 3'])

    // Back to before prompt 1: the created file goes, and the directories it was created in.
    const first = (await server.request('session/rewind', {code: true, conversation: false, sessionId, to: 1})).result
    expect(first).toMatchObject({conversation: null, rewound: {conversation: false}})
    expect(treeHashes(project)).toEqual(original)
    expect(existsSync(join(project, 'deep'))).toBe(false)

    const busy = await server.request('turn/start', {input: 'prompt 4', sessionId})
    const refused = await server.request('session/rewind', {sessionId, to: 1})
    expect(refused.error).toMatchObject({
      code: RPC_ERRORS.sessionBusy,
      message: expect.stringContaining('running a turn'),
    })
    await server.next('turn/completed', (p) => p.turnId === busy.result.turnId)

    // The CLI's errors, as JSON-RPC errors.
    const wrong = await server.request('session/rewind', {sessionId, to: 9})
    expect(wrong.error).toMatchObject({
      code: RPC_ERRORS.serverError,
      message: `Session ${sessionId} has prompts 1 to 4, not 9`,
    })
    const nothing = await server.request('session/rewind', {code: false, conversation: false, sessionId})
    expect(nothing.error).toMatchObject({code: RPC_ERRORS.invalidParams})

    expect(offSchema(server)).toEqual([])
    await server.close()
    expect(server.child.exitCode).toBe(0)
  })
})
