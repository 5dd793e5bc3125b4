import {describe, expect, it} from 'vitest'

import {Agent, type ApiClient, type Message, Runner, type StreamEvent, tool} from '../../../src/core/agent/index.js'
import {ModelError} from '../../../src/core/agent/types.js'
import {SessionRecorder} from '../../../src/core/sessions/recorder.js'
import type {TranscriptLine} from '../../../src/core/sessions/transcript.js'
import {scripted} from '../../helpers/scripted-model.js'

const usage = (input: number, output: number): StreamEvent => ({
  type: 'usage',
  usage: {inputTokens: input, outputTokens: output},
})
const stop: StreamEvent = {stopReason: 'end_turn', type: 'message_stop'}
const echo = tool<{text: string}>({
  description: 'Echoes',
  execute: ({text}) => `echo: ${text}`,
  mutating: false,
  name: 'echo',
  parameters: {properties: {text: {type: 'string'}}, type: 'object'},
})
const agent = new Agent({instructions: 'Be brief.', model: 'm', name: 'a', tools: [echo]})

function recorder(history: Message[] = []) {
  const lines: TranscriptLine[] = []
  return {
    lines,
    recorder: new SessionRecorder({
      count: (line) => lines.push(line),
      history,
      instructions: agent.instructions,
      now: () => new Date(0),
      provider: 'p',
      write: (line) => lines.push(line),
    }),
  }
}

async function run(client: ApiClient, prompt: string, history?: Message[]) {
  const {lines, recorder: rec} = recorder(history)
  const result = await Runner.run(agent, prompt, {
    client: rec.wrap(client),
    history,
    onEvent: (event) => rec.onEvent(event),
  })
  rec.finish(result.history)
  rec.end(result.stop)
  return {lines, rec, result}
}

describe('SessionRecorder', () => {
  it('saves the messages as the model saw them, the last reply, and each request’s usage', async () => {
    const call = {arguments: '{"text":"x"}', id: 'c1', input: {text: 'x'}, name: 'echo'}
    const client = scripted(
      [{call, type: 'tool_use'}, usage(10, 2), stop],
      [{text: 'done', type: 'content_delta'}, usage(20, 1), stop],
    )
    const {lines, rec} = await run(client, 'go')
    const at = new Date(0).toISOString()
    expect(lines).toEqual([
      {at, content: 'go', type: 'user'},
      {at, content: '', tool_calls: [{arguments: '{"text":"x"}', id: 'c1', name: 'echo'}], type: 'assistant'},
      {at, input_tokens: 10, model: 'm', output_tokens: 2, provider: 'p', turn: 1, type: 'usage'},
      {at, content: 'echo: x', is_error: false, tool_call_id: 'c1', tool_name: 'echo', type: 'tool_result'},
      {at, input_tokens: 20, model: 'm', output_tokens: 1, provider: 'p', turn: 2, type: 'usage'},
      {at, content: 'done', tool_calls: [], type: 'assistant'},
      {at, stop: 'completed', turns: 2, type: 'end', usage: {input_tokens: 30, output_tokens: 3}},
    ])
    expect(rec.requests.map((r) => r.turn)).toEqual([1, 2])
  })

  it('saves a reply before its calls run: a kill during a call leaves the call saved', async () => {
    const {lines, recorder: rec} = recorder()
    const seen: TranscriptLine[][] = []
    const watch = tool<{text: string}>({
      description: 'Sees the transcript while it runs',
      execute: () => (seen.push([...lines]), 'ok'),
      mutating: false,
      name: 'watch',
      parameters: {type: 'object'},
    })
    const call = {arguments: '{}', id: 'c1', input: {}, name: 'watch'}
    const client = scripted([{text: 'Looking.', type: 'content_delta'}, {call, type: 'tool_use'}, stop], [stop])
    await Runner.run(new Agent({...agent, tools: [watch]}), 'go', {client: rec.wrap(client)})
    expect(seen[0].filter((line) => line.type !== 'usage')).toEqual([
      {at: new Date(0).toISOString(), content: 'go', type: 'user'},
      {
        at: new Date(0).toISOString(),
        content: 'Looking.',
        tool_calls: [{arguments: '{}', id: 'c1', name: 'watch'}],
        type: 'assistant',
      },
    ])
    expect(lines.filter((line) => line.type === 'history')).toEqual([])
  })

  it('keeps the text of a reply a model error cut short, without its calls', async () => {
    const call = {arguments: '{}', id: 'c1', input: {}, name: 'echo'}
    const failed = new ModelError('stream broke', {status: 500})
    const client = scripted([
      {text: 'Half a ', type: 'content_delta'},
      {call, type: 'tool_use'},
      {error: failed, type: 'error'},
    ])
    const {lines, recorder: rec} = recorder()
    await expect(Runner.run(agent, 'go', {client: rec.wrap(client)})).rejects.toThrow('stream broke')
    expect(lines.filter((line) => line.type !== 'usage')).toMatchObject([
      {content: 'go', type: 'user'},
      {content: 'Half a ', tool_calls: [], type: 'assistant'},
    ])
  })

  it('saves only what a resumed run adds to the conversation', async () => {
    const first = await run(scripted([{text: 'one', type: 'content_delta'}, stop]), 'first')
    const history = first.result.history.slice(1)
    const client = scripted([{text: 'two', type: 'content_delta'}, stop])
    const {lines} = await run(client, 'second', history)
    expect(client.requests[0].map((m) => m.content)).toEqual(['Be brief.', 'first', 'one', 'second'])
    expect(lines.filter((line) => line.type !== 'usage' && line.type !== 'end')).toMatchObject([
      {content: 'second', type: 'user'},
      {content: 'two', type: 'assistant'},
    ])
  })

  it('saves the whole conversation when it no longer starts with what was saved (a compaction)', async () => {
    const {lines, recorder: rec} = recorder()
    const client = rec.wrap(scripted([stop], [stop], [stop]))
    const send = async (messages: Message[]) => {
      for await (const _ of client.sendMessage(messages, [], {model: 'm'})) continue
    }

    const system: Message = {content: 'Be brief.', role: 'system'}
    await send([system, {content: 'a', role: 'user'}])
    // A summary request of its own: not the conversation.
    await send([
      {content: 'Summarize.', role: 'system'},
      {content: 'a', role: 'user'},
    ])
    await send([system, {content: '[summary]', role: 'user'}, {content: 'b', role: 'user'}])
    expect(lines.filter((line) => line.type !== 'usage')).toEqual([
      {at: new Date(0).toISOString(), content: 'a', type: 'user'},
      {
        at: new Date(0).toISOString(),
        messages: [
          {content: '[summary]', type: 'user'},
          {content: 'b', type: 'user'},
        ],
        type: 'history',
      },
    ])
    expect(lines.filter((line) => line.type === 'usage')).toHaveLength(3)
    // As the compactor reports it (a CompactionResult): its messages are in the history line already.
    const compaction = {compacted_count: 3, messages: [], strategy: 'summary', tokens_saved: 900}
    rec.compacted(compaction)
    expect(lines.at(-1)).toEqual({
      at: new Date(0).toISOString(),
      compacted_count: 3,
      strategy: 'summary',
      tokens_saved: 900,
      type: 'compaction',
    })
  })

  it('keeps the signed reasoning that goes back with a reply’s tool calls', async () => {
    const reasoning = [{signature: 'sig', thinking: 'hmm', type: 'thinking' as const}]
    const history: Message[] = [{content: 'q', role: 'user'}]
    const {lines, recorder: rec} = recorder(history)
    rec.finish([
      {content: 'Be brief.', role: 'system'},
      ...history,
      {content: 'a', reasoning, role: 'assistant', toolCalls: []},
    ])
    expect(lines).toEqual([{at: new Date(0).toISOString(), content: 'a', reasoning, tool_calls: [], type: 'assistant'}])
  })
})
