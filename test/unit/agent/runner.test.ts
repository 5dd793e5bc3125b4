import {ToolFatalError, toolOk} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {
  Agent,
  type AgentEvent,
  type Message,
  ModelError,
  runAgentLoop,
  Runner,
  type StreamEvent,
  tool,
  type ToolCallRequest,
} from '../../../src/core/agent/index.js'
import {scripted} from '../../helpers/scripted-model.js'

const call = (
  id: string,
  name: string,
  input: Record<string, unknown>,
  args = JSON.stringify(input),
): ToolCallRequest => ({arguments: args, id, input, name})
const text = (t: string): StreamEvent[] => [
  {text: t, type: 'content_delta'},
  {stopReason: 'end_turn', type: 'message_stop'},
]
const calls = (...requests: ToolCallRequest[]): StreamEvent[] => [
  ...requests.map((c) => ({call: c, type: 'tool_use'}) as const),
  {stopReason: 'tool_use', type: 'message_stop'},
]
const echo = tool<{text: string}>({
  description: 'Echoes its input',
  execute: ({text: t}) => `echo: ${t}`,
  mutating: false,
  name: 'echo',
  parameters: {additionalProperties: false, properties: {text: {type: 'string'}}, required: ['text'], type: 'object'},
})

describe('Runner.run', () => {
  it('answers without tools, keeping the system message and the user input in the history', async () => {
    const client = scripted(text('Hello!'))
    const result = await Runner.run(new Agent({instructions: 'Be brief.', model: 'm', name: 'a'}), 'Hi', {client})
    expect(result).toMatchObject({finalOutput: 'Hello!', stop: 'completed', turns: 1})
    expect(result.history).toEqual([
      {content: 'Be brief.', role: 'system'},
      {content: 'Hi', role: 'user'},
      {content: 'Hello!', role: 'assistant', toolCalls: []},
    ])
  })

  it('runs a tool call and sends its result back, in a history the next request can carry', async () => {
    const client = scripted(calls(call('c1', 'echo', {text: 'x'})), text('done'))
    const result = await Runner.run(new Agent({model: 'm', name: 'a', tools: [echo]}), 'go', {client})
    expect(result.finalOutput).toBe('done')
    expect(client.requests[1].at(-1)).toEqual({
      content: 'echo: x',
      isError: false,
      role: 'tool',
      toolCallId: 'c1',
      toolName: 'echo',
    })
  })

  it('refuses a call to a tool it does not offer, before its input is looked at, and tells the permission step', async () => {
    const refused: string[] = []
    const permissions = {
      check: async () => ({allowed: true}) as const,
      refuse: async (c: {toolName: string}, reason: string) => void refused.push(`${c.toolName}: ${reason}`),
    }
    const client = scripted(calls(call('a', 'echo', {wrong: true})), text('ok'))
    const result = await Runner.run(new Agent({model: 'm', name: 'a', tools: [echo]}), 'go', {
      client,
      offered: [],
      permissions,
    })
    expect(result.finalOutput).toBe('ok')
    expect(client.requests[1].at(-1)).toMatchObject({
      content: expect.stringMatching(/^Error: Refused: echo is not one of this session's tools \(it has none\)/),
      isError: true,
    })
    expect(refused).toEqual(["echo: echo is not one of this session's tools (it has none)"])
  })

  it('sends bad calls back to the model as errors: invalid JSON, unknown tool, input against the schema, a throwing tool', async () => {
    const boom = tool({
      description: 'fails',
      execute: () => Promise.reject(new Error('disk on fire')),
      name: 'boom',
      parameters: {type: 'object'},
    })
    const client = scripted(
      calls(
        call('a', 'echo', {}, '{"text": '),
        call('b', 'nope', {}),
        call('c', 'echo', {text: 3}),
        call('d', 'boom', {}),
      ),
      text('ok'),
    )
    await Runner.run(new Agent({model: 'm', name: 'a', tools: [echo, boom]}), 'go', {client})
    const results = client.requests[1].filter((m) => m.role === 'tool')
    expect(results.map((m) => m.isError)).toEqual([true, true, true, true])
    expect(results[0].content).toMatch(/not valid JSON/)
    expect(results[1].content).toMatch(/Unknown tool "nope".*echo, boom/)
    expect(results[2].content).toMatch(/Invalid input for echo: "text" must be string/)
    expect(results[3].content).toMatch(/boom failed: disk on fire/)
  })

  it('sends arguments nested past the JSON bound back to the model instead of overflowing the stack', async () => {
    const deep = `{"text": "x", "more": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`
    const client = scripted(calls(call('a', 'echo', {}, deep)), text('ok'))
    await Runner.run(new Agent({model: 'm', name: 'a', tools: [echo]}), 'go', {client})
    expect(client.requests[1].at(-1)).toMatchObject({
      content:
        'Error: The arguments of echo have objects and lists nested more than 64 levels deep, more than any tool takes. Send them again as one JSON object.',
      isError: true,
    })
  })

  it('runs neighbouring read-only calls side by side and mutating ones alone, results in call order', async () => {
    const log: string[] = []
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    // Each read waits for the other to start: run one after the other, they would never finish.
    let started = 0
    const read = tool<{id: string}>({
      description: 'reads',
      async execute({id}) {
        log.push(`start ${id}`)
        if (++started === 2) release()
        await gate
        return id
      },
      mutating: false,
      name: 'read',
      parameters: {type: 'object'},
    })
    const write = tool<{id: string}>({
      description: 'writes',
      execute: ({id}) => (log.push(`write ${id}`), id),
      name: 'write',
      parameters: {type: 'object'},
    })
    const client = scripted(
      calls(call('1', 'read', {id: 'r1'}), call('2', 'read', {id: 'r2'}), call('3', 'write', {id: 'w'})),
      text('ok'),
    )
    await Runner.run(new Agent({model: 'm', name: 'a', tools: [read, write]}), 'go', {client})
    expect(log).toEqual(['start r1', 'start r2', 'write w'])
    expect(client.requests[1].filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(['r1', 'r2', 'w'])
  })

  it('ends on abort with a result for every call, so the history stays valid', async () => {
    const controller = new AbortController()
    const slow = tool({
      description: 'waits for abort',
      execute: (_input, {signal}) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped'))),
      name: 'slow',
      parameters: {type: 'object'},
    })
    const events: AgentEvent[] = []
    const client = scripted(calls(call('1', 'slow', {}), call('2', 'slow', {})))
    const run = Runner.run(new Agent({model: 'm', name: 'a', tools: [slow]}), 'go', {
      client,
      onEvent(event) {
        events.push(event)
        if (event.type === 'tool_call' && event.call.id === '2') setTimeout(() => controller.abort(), 10)
      },
      signal: controller.signal,
    })
    const result = await run
    expect(result.stop).toBe('cancelled')
    const results = result.history.filter((m) => m.role === 'tool')
    expect(results.map((m) => m.role === 'tool' && m.toolCallId)).toEqual(['1', '2'])
    expect(results.every((m) => m.role === 'tool' && m.isError && /cancelled/.test(m.content))).toBe(true)
  })

  it('ends the turn on a model error, leaving the history as before the failed request', async () => {
    const client = scripted(calls(call('1', 'echo', {text: 'x'})), [
      {error: new ModelError('Insufficient balance', {status: 402}), type: 'error'},
    ])
    const history: Message[] = [{content: 'go', role: 'user'}]
    const executor = {execute: async () => toolOk('x')}
    await expect(
      runAgentLoop(history, {client, executor, maxTurns: 5, model: 'm', sessionId: 's', tools: []}),
    ).rejects.toThrow(/Insufficient balance/)
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
  })

  it("ends the turn on a tool's ToolFatalError (not the model's to handle), with a result for every call", async () => {
    const broken = tool({
      description: 'Fails for good',
      execute: () => Promise.reject(new ToolFatalError('the workspace is gone')),
      mutating: true,
      name: 'broken',
      parameters: {type: 'object'},
    })
    const client = scripted(calls(call('1', 'broken', {}), call('2', 'echo', {text: 'x'})), text('never asked'))
    const error = await Runner.run(new Agent({model: 'm', name: 'a', tools: [broken, echo]}), 'go', {client}).catch(
      (error: unknown) => error,
    )
    expect(error).toBeInstanceOf(ToolFatalError)
    expect(client.requests).toHaveLength(1)
    const history: Message[] = [{content: 'go', role: 'user'}]
    const executor = {
      execute: async (name: string) =>
        name === 'broken' ? Promise.reject(new ToolFatalError('the workspace is gone')) : toolOk('ran'),
    }
    await expect(
      runAgentLoop(history, {
        client: scripted(calls(call('1', 'broken', {}), call('2', 'echo', {text: 'x'}))),
        executor,
        maxTurns: 5,
        model: 'm',
        sessionId: 's',
        tools: [],
      }),
    ).rejects.toThrow('the workspace is gone')
    expect(history.slice(2)).toEqual([
      {
        content: 'Error: the turn ended: the workspace is gone',
        isError: true,
        role: 'tool',
        toolCallId: '1',
        toolName: 'broken',
      },
      {
        content: 'Error: not run: the turn ended when another call failed (the workspace is gone)',
        isError: true,
        role: 'tool',
        toolCallId: '2',
        toolName: 'echo',
      },
    ])
  })

  it('stops after maxTurns requests', async () => {
    const client = scripted(calls(call('1', 'echo', {text: 'a'})), calls(call('2', 'echo', {text: 'b'})))
    const result = await Runner.run(new Agent({model: 'm', name: 'a', tools: [echo]}), 'go', {client, maxTurns: 2})
    expect(result).toMatchObject({stop: 'max_turns', turns: 2})
    expect(result.history.at(-1)).toMatchObject({role: 'tool', toolCallId: '2'})
  })

  it('ends on a reply cut at the output limit (max_tokens), running none of its calls and answering each', async () => {
    const executed: string[] = []
    const counting = tool({
      description: 'counts',
      execute: (input) => (executed.push(JSON.stringify(input)), 'ran'),
      name: 'echo',
      parameters: {type: 'object'},
    })
    const cut = (...events: StreamEvent[]): StreamEvent[] => [
      ...events,
      {stopReason: 'max_tokens', type: 'message_stop'},
    ]
    const client = scripted(
      cut(
        {text: 'Reading a and', type: 'content_delta'},
        {call: call('1', 'echo', {text: 'a'}), type: 'tool_use'},
        {call: call('2', 'echo', {}, '{"te'), type: 'tool_use'},
      ),
    )
    const events: AgentEvent[] = []
    const result = await Runner.run(new Agent({model: 'm', name: 'a', tools: [counting]}), 'go', {
      client,
      onEvent: (e) => events.push(e),
    })
    expect(result).toMatchObject({finalOutput: 'Reading a and', stop: 'max_tokens', turns: 1})
    expect(executed).toEqual([])
    expect(result.history.filter((m) => m.role === 'tool')).toMatchObject([
      {content: expect.stringContaining('max_tokens'), isError: true, toolCallId: '1'},
      {isError: true, toolCallId: '2'},
    ])
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(2)
    const answer = await Runner.run(new Agent({model: 'm', name: 'a'}), 'go', {
      client: scripted(cut({text: 'It was a dark', type: 'content_delta'})),
    })
    expect(answer).toMatchObject({finalOutput: 'It was a dark', stop: 'max_tokens'})
  })

  it('leaves a leading think block out of the output, the deltas and the next history, and keeps it in the raw responses', async () => {
    const client = scripted(
      [
        {text: '<thi', type: 'content_delta'},
        {text: 'nk>plan: call echo</think>\n', type: 'content_delta'},
        {call: call('1', 'echo', {text: 'x'}), type: 'tool_use'},
        {raw: {id: 'r1'}, stopReason: 'tool_use', type: 'message_stop'},
      ],
      [
        {text: '<think>hm</think>The answer.', type: 'content_delta'},
        {stopReason: 'end_turn', type: 'message_stop'},
      ],
    )
    const deltas: string[] = []
    const result = await Runner.run(new Agent({model: 'm', name: 'a', tools: [echo]}), 'go', {
      client,
      onEvent: (e) => e.type === 'text_delta' && deltas.push(e.text),
    })
    expect(result.finalOutput).toBe('The answer.')
    expect(deltas.join('')).toBe('The answer.')
    expect(client.requests[1].find((m) => m.role === 'assistant')).toMatchObject({content: ''})
    expect(result.rawResponses).toEqual([{id: 'r1'}, '<think>hm</think>The answer.'])
  })

  it('cuts long tool output centrally, keeping head and tail and saying so', async () => {
    const big = tool({
      description: 'big',
      execute: () => `HEAD${'x'.repeat(300_000)}TAIL`,
      name: 'big',
      parameters: {type: 'object'},
    })
    const client = scripted(calls(call('1', 'big', {})), text('ok'))
    await Runner.run(new Agent({model: 'm', name: 'a', tools: [big]}), 'go', {client})
    const output = client.requests[1].at(-1)!.content
    expect(output.length).toBeLessThan(101_000)
    expect(output).toMatch(/^HEAD/)
    expect(output).toMatch(/TAIL$/)
    expect(output).toMatch(/characters \(0 lines\) cut from the middle/)
  })

  it('asks the permission check before each call and sends a denial back to the model', async () => {
    const asked: string[] = []
    const client = scripted(calls(call('1', 'echo', {text: 'x'})), text('ok'))
    await Runner.run(new Agent({model: 'm', name: 'a', tools: [echo]}), 'go', {
      client,
      permissions: {
        async check({toolName}) {
          asked.push(toolName)
          return {allowed: false, reason: 'not today'}
        },
      },
    })
    expect(asked).toEqual(['echo'])
    expect(client.requests[1].at(-1)).toMatchObject({
      content: 'Error: Permission denied for echo: not today',
      isError: true,
    })
  })
})
