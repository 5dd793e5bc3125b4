import {toolError} from '@hanzo-dev/sdk'
import {afterEach, describe, expect, it, vi} from 'vitest'

import {Agent, ModelError, Runner, tool} from '../../../src/core/agent/index.js'
import {traceAgentRun} from '../../../src/core/tracing/agent-run.js'
import {
  addTraceProcessor,
  readTracingEnvironmentFrom,
  setTraceProcessors,
  setTracingDisabled,
} from '../../../src/core/tracing/index.js'
import type {Script} from '../../../src/testing/fake-model/script.js'
import {ScriptedApiClient} from '../../../src/testing/fake-model/scripted-client.js'
import {Recorder} from './recorder.js'

// What the run reads and writes: none of it may reach a span.
const INSTRUCTIONS = 'INSTRUCTIONS-c0ffee'
const PROMPT = 'PROMPT-beef01'
const TOOL_INPUT = 'TOOL-INPUT-5ecre7'
const TOOL_OUTPUT = 'TOOL-OUTPUT-d1sk'
const REPLY = 'REPLY-f1na1'

const echo = tool<{text: string}>({
  description: 'Echoes its input',
  execute: ({text}) => `${TOOL_OUTPUT} ${text}`,
  mutating: false,
  name: 'echo',
  parameters: {properties: {text: {type: 'string'}}, required: ['text'], type: 'object'},
})
const agent = (tools = [echo], name = 'helper') =>
  new Agent({instructions: INSTRUCTIONS, model: 'fake-model', name, tools})
const oneToolCall: Script = {
  turns: [
    {tool_calls: [{arguments: {text: TOOL_INPUT}, name: 'echo'}], usage: {input_tokens: 12, output_tokens: 3}},
    {text: REPLY, usage: {input_tokens: 20, output_tokens: 2}},
  ],
}
const run = (script: Script, tools = [echo]) =>
  Runner.run(agent(tools), PROMPT, {client: new ScriptedApiClient(script), sessionId: 'session-1'})

afterEach(() => {
  setTraceProcessors([])
  vi.unstubAllEnvs()
})

describe('Runner.run spans', () => {
  it('makes a trace with an agent span, a generation span per request and a function span per tool call', async () => {
    const recorder = new Recorder()
    addTraceProcessor(recorder)
    const result = await run(oneToolCall)
    expect(result.finalOutput).toBe(REPLY)

    expect(recorder.log).toEqual([
      'trace_start',
      'start agent',
      'start generation',
      'end generation',
      'start function',
      'end function',
      'start generation',
      'end generation',
      'end agent',
      'trace_end',
    ])
    const [trace] = recorder.traces
    expect(trace).toEqual({
      group_id: 'session-1',
      id: expect.stringMatching(/^trace_[0-9a-f]{32}$/),
      metadata: null,
      object: 'trace',
      workflow_name: 'helper',
    })
    const [agentSpan] = recorder.ofType('agent')
    expect(agentSpan).toMatchObject({
      error: null,
      parent_id: null,
      span_data: {model: 'fake-model', name: 'helper', tools: ['echo'], type: 'agent'},
      trace_id: trace.id,
    })
    expect(recorder.ofType('generation')).toEqual([
      expect.objectContaining({
        parent_id: agentSpan.id,
        span_data: {
          model: 'fake-model',
          stop_reason: 'tool_use',
          type: 'generation',
          usage: {input_tokens: 12, output_tokens: 3},
        },
      }),
      expect.objectContaining({
        parent_id: agentSpan.id,
        span_data: {
          model: 'fake-model',
          stop_reason: 'end_turn',
          type: 'generation',
          usage: {input_tokens: 20, output_tokens: 2},
        },
      }),
    ])
    expect(recorder.ofType('function')).toEqual([
      expect.objectContaining({
        error: null,
        parent_id: agentSpan.id,
        span_data: {
          is_error: false,
          name: 'echo',
          output_chars: `${TOOL_OUTPUT} ${TOOL_INPUT}`.length,
          type: 'function',
        },
      }),
    ])
    for (const span of recorder.spans) {
      expect(span).toMatchObject({
        id: expect.stringMatching(/^span_[0-9a-f]{24}$/),
        object: 'trace.span',
        trace_id: trace.id,
      })
      expect(span.ended_at! >= span.started_at).toBe(true)
    }

    const sent = JSON.stringify([recorder.traces, recorder.spans])
    for (const content of [INSTRUCTIONS, PROMPT, TOOL_INPUT, TOOL_OUTPUT, REPLY]) expect(sent).not.toContain(content)
  })

  it('marks a failed tool call without keeping its error text', async () => {
    const leaky = tool({
      description: 'fails',
      execute: () => toolError(`cannot parse ${TOOL_OUTPUT}`),
      name: 'leaky',
      parameters: {type: 'object'},
    })
    const recorder = new Recorder()
    addTraceProcessor(recorder)
    await run({turns: [{tool_calls: [{name: 'leaky'}]}, {text: 'ok'}]}, [leaky])
    const [span] = recorder.ofType('function')
    expect(span).toMatchObject({
      error: {message: 'leaky returned an error'},
      span_data: {is_error: true, name: 'leaky'},
    })
    expect(JSON.stringify(span)).not.toContain(TOOL_OUTPUT)
  })

  it('records a model error on the generation and agent spans, and still ends the trace', async () => {
    const recorder = new Recorder()
    addTraceProcessor(recorder)
    const failing: Script = {
      turns: [{body: {code: 'invalid_api_key', message: 'Incorrect API key provided.'}, status: 401}],
    }
    await expect(run(failing)).rejects.toBeInstanceOf(ModelError)
    const error = {data: {code: 'invalid_api_key', status: 401}, message: 'Incorrect API key provided.'}
    expect(recorder.ofType('generation')[0].error).toEqual(error)
    expect(recorder.ofType('agent')[0].error).toEqual(error)
    expect(recorder.log.at(-1)).toBe('trace_end')
  })

  it('keeps the executor as the loop knows it: read-only calls still run side by side', async () => {
    let started = 0
    let release!: () => void
    const bothStarted = new Promise<void>((resolve) => {
      release = resolve
    })
    // Each call waits for the other to start: run one after the other, they would never finish.
    const read = tool({
      description: 'reads',
      async execute() {
        if (++started === 2) release()
        await bothStarted
        return 'read'
      },
      mutating: false,
      name: 'read',
      parameters: {type: 'object'},
    })
    const recorder = new Recorder()
    addTraceProcessor(recorder)
    await run({turns: [{tool_calls: [{name: 'read'}, {name: 'read'}]}, {text: 'ok'}]}, [read])
    expect(recorder.ofType('function')).toHaveLength(2)
  })

  it('puts a run started inside a tool call under that call, in the same trace', async () => {
    const inner = agent([], 'inner')
    const delegate = tool({
      description: 'asks another agent',
      execute: async () =>
        (await Runner.run(inner, 'sub-task', {client: new ScriptedApiClient({turns: [{text: 'sub-answer'}]})}))
          .finalOutput,
      name: 'delegate',
      parameters: {type: 'object'},
    })
    const recorder = new Recorder()
    addTraceProcessor(recorder)
    await run({turns: [{tool_calls: [{name: 'delegate'}]}, {text: 'ok'}]}, [delegate])
    expect(recorder.traces).toHaveLength(1)
    const named = (name: string) =>
      recorder.ofType('agent').find((span) => span.span_data.type === 'agent' && span.span_data.name === name)!
    const [outer, nested] = [named('helper'), named('inner')]
    const [call] = recorder.ofType('function')
    expect(call.parent_id).toBe(outer.id)
    expect(nested).toMatchObject({parent_id: call.id, span_data: {name: 'inner'}, trace_id: outer.trace_id})
    expect(recorder.ofType('generation').filter((g) => g.parent_id === nested.id)).toHaveLength(1)
  })
})

describe('tracing switches', () => {
  it('builds nothing without a processor', () => {
    expect(traceAgentRun({model: 'm', name: 'a'}, [])).toBeUndefined()
  })

  // The explicit switch outlives its test (as in the SDK, nothing unsets it): the env cases come first.
  it('HANZO_TRACING_DISABLED=1 or true stops traces', async () => {
    // As the library entry (src/index.ts) and the CLI point it: the core reads no globals.
    readTracingEnvironmentFrom(() => process.env)
    const recorder = new Recorder()
    addTraceProcessor(recorder)
    for (const value of ['1', 'true', 'TRUE']) {
      vi.stubEnv('HANZO_TRACING_DISABLED', value)
      expect(traceAgentRun({model: 'm', name: 'a'}, [])).toBeUndefined()
      await run(oneToolCall)
    }

    expect(recorder.log).toEqual([])
    vi.stubEnv('HANZO_TRACING_DISABLED', '0')
    await run(oneToolCall)
    expect(recorder.traces).toHaveLength(1)
  })

  it('setTracingDisabled(true) stops traces and wins over the environment either way', async () => {
    const recorder = new Recorder()
    addTraceProcessor(recorder)
    setTracingDisabled(true)
    await run(oneToolCall)
    expect(recorder.log).toEqual([])
    vi.stubEnv('HANZO_TRACING_DISABLED', '1')
    setTracingDisabled(false)
    await run(oneToolCall)
    expect(recorder.traces).toHaveLength(1)
  })

  it('tells processors in the order they were added; one that throws or rejects is skipped', async () => {
    const log: string[] = []
    const throwing = Object.assign(new Recorder(), {
      onSpanEnd() {
        throw new Error('processor bug')
      },
    })
    const rejecting = Object.assign(new Recorder(), {
      onTraceStart: () => Promise.reject(new Error('async processor bug')),
    })
    setTraceProcessors([new Recorder('a:', log), throwing, rejecting, new Recorder('b:', log)])
    expect((await run(oneToolCall)).finalOutput).toBe(REPLY)
    expect(log).toHaveLength(20)
    for (let i = 0; i < log.length; i += 2)
      expect([log[i], log[i + 1]]).toEqual([`a:${log[i].slice(2)}`, `b:${log[i].slice(2)}`])
  })

  it('setTraceProcessors replaces the list; a trace keeps the processors it started with', async () => {
    const first = new Recorder()
    const second = new Recorder()
    const late = new Recorder()
    addTraceProcessor(first)
    setTraceProcessors([second])
    const addsOne = tool({
      description: 'adds a processor',
      execute: () => (addTraceProcessor(late), 'added'),
      name: 'add',
      parameters: {type: 'object'},
    })
    await run({turns: [{tool_calls: [{name: 'add'}]}, {text: 'ok'}]}, [addsOne])
    expect(first.log).toEqual([])
    expect(second.log.at(-1)).toBe('trace_end')
    expect(late.log).toEqual([])
  })
})
