import {type AgentEvent, type ToolDefinition, toolError, toolOk, type TurnItem} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {Agent, ModelError, Runner, type StreamEvent, type ToolCallRequest} from '../../../src/core/agent/index.js'
import {scripted} from '../../helpers/scripted-model.js'

const call = (id: string, name: string, input: Record<string, unknown>): ToolCallRequest => ({
  arguments: JSON.stringify(input),
  id,
  input,
  name,
})
const reply = (text: string, ...calls: ToolCallRequest[]): StreamEvent[] => [
  {text, type: 'content_delta'},
  ...calls.map((c) => ({call: c, type: 'tool_use'}) as const),
  {stopReason: calls.length > 0 ? 'tool_use' : 'end_turn', type: 'message_stop'},
]

/** Tools that describe themselves as a plugin's would: one runs commands, one edits files, one says nothing. */
const shell: ToolDefinition<{line: string}> = {
  description: 'runs a line',
  execute: async ({line}) =>
    line === 'false'
      ? toolError('exit 1', '', {exitCode: 1, kind: 'execute', stderr: '', stdout: ''})
      : toolOk('ok', {exitCode: 0, kind: 'execute', stderr: '', stdout: 'hi\n'}),
  inputSchema: {properties: {line: {type: 'string'}}, type: 'object'},
  kind: 'execute',
  mutating: true,
  name: 'shell',
  subject: ({line}) => ({command: line, kind: 'command'}),
}
const touch: ToolDefinition<{file: string}> = {
  describe: ({file}) => `touch ${file}`,
  description: 'creates a file',
  execute: async ({file}) => toolOk('made', {files: [{after: '', before: null, path: file}], kind: 'edit'}),
  inputSchema: {properties: {file: {type: 'string'}}, type: 'object'},
  kind: 'edit',
  locations: ({file}) => [{path: file}],
  mutating: true,
  name: 'touch',
}
const plain: ToolDefinition = {
  description: 'says nothing of itself',
  execute: async () => toolOk('x'),
  inputSchema: {type: 'object'},
  mutating: false,
  name: 'plain',
}

async function items(...replies: StreamEvent[][]): Promise<Array<[string, TurnItem]>> {
  const seen: Array<[string, TurnItem]> = []
  const onEvent = (event: AgentEvent) =>
    (event.type === 'item_started' || event.type === 'item_completed') && seen.push([event.type, event.item])
  await Runner.run(new Agent({model: 'm', name: 'a', tools: [shell, touch, plain]}), 'go', {
    client: scripted(...replies),
    onEvent,
  }).catch(() => {})
  return seen
}

describe('the turn items the core reports', () => {
  it('a message until a call; each call typed by what its tool says, completed with what its result reports', async () => {
    const seen = await items(
      reply(
        'Let me.',
        call('c1', 'shell', {line: 'echo hi'}),
        call('c2', 'touch', {file: 'a.txt'}),
        call('c3', 'plain', {n: 1}),
        call('c4', 'shell', {line: 'false'}),
      ),
      reply('Done.'),
    )
    expect(seen.map(([phase, item]) => `${phase} ${item.type} ${item.id}`)).toEqual([
      'item_started message msg-1',
      'item_completed message msg-1',
      'item_started command_execution c1',
      'item_started file_change c2',
      'item_started tool_call c3',
      'item_started command_execution c4',
      'item_completed command_execution c1',
      'item_completed file_change c2',
      'item_completed tool_call c3',
      'item_completed command_execution c4',
      'item_started message msg-2',
      'item_completed message msg-2',
    ])
    const completed = new Map(seen.filter(([phase]) => phase === 'item_completed').map(([, item]) => [item.id, item]))
    expect(completed.get('msg-1')).toEqual({id: 'msg-1', text: 'Let me.', type: 'message'})
    expect(completed.get('c1')).toMatchObject({
      command: 'echo hi',
      exitCode: 0,
      kind: 'execute',
      status: 'completed',
      title: 'echo hi',
    })
    expect(completed.get('c2')).toMatchObject({
      files: [{after: '', before: null, path: 'a.txt'}],
      kind: 'edit',
      locations: [{path: 'a.txt'}],
      title: 'touch a.txt',
    })
    expect(completed.get('c3')).toMatchObject({kind: 'other', status: 'completed', title: '{"n":1}'})
    expect(completed.get('c4')).toMatchObject({
      exitCode: 1,
      result: {error: 'exit 1', is_error: true},
      status: 'failed',
    })
  })

  it('a call to a tool no one has is a plain tool call that fails', async () => {
    const seen = await items(reply('', call('x', 'nope', {})), reply('ok'))
    expect(seen.find(([phase, item]) => phase === 'item_completed' && item.id === 'x')?.[1]).toMatchObject({
      kind: 'other',
      name: 'nope',
      status: 'failed',
      type: 'tool_call',
    })
  })

  it('the error that ends a run is an item, after the message it cut short', async () => {
    const failing = (async function* (): AsyncGenerator<StreamEvent> {
      yield {text: 'Half', type: 'content_delta'}
      throw new ModelError('the server said no', {status: 500})
    })()
    const seen: TurnItem[] = []
    const client = {sendMessage: () => failing}
    await expect(
      Runner.run(new Agent({model: 'm', name: 'a'}), 'go', {
        client,
        onEvent: (e) => e.type === 'item_completed' && seen.push(e.item),
      }),
    ).rejects.toThrow('the server said no')
    expect(seen).toEqual([
      {id: 'msg-1', text: 'Half', type: 'message'},
      {id: 'error-2', message: 'the server said no', type: 'error'},
    ])
  })
})
