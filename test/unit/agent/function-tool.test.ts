import {describe, expect, expectTypeOf, it} from 'vitest'
import {z} from 'zod'

import {Agent, Runner, type StreamEvent, tool, type ToolCallRequest} from '../../../src/core/agent/index.js'
import {scripted} from '../../helpers/scripted-model.js'

const call = (id: string, input: Record<string, unknown>): ToolCallRequest => ({
  arguments: JSON.stringify(input),
  id,
  input,
  name: 'forecast',
})
const calls = (...requests: ToolCallRequest[]): StreamEvent[] => [
  ...requests.map((c) => ({call: c, type: 'tool_use'}) as const),
  {stopReason: 'tool_use', type: 'message_stop'},
]
const text = (t: string): StreamEvent[] => [
  {text: t, type: 'content_delta'},
  {stopReason: 'end_turn', type: 'message_stop'},
]

const received: unknown[] = []
const forecast = tool({
  description: 'The forecast for a city',
  execute(input) {
    expectTypeOf(input).toEqualTypeOf<{city: string; days: number}>()
    received.push(input)
    return `${input.city}: sunny for ${input.days} days`
  },
  mutating: false,
  name: 'forecast',
  parameters: z.object({
    city: z
      .string()
      .describe('The city')
      .refine((city) => city.trim() !== '', 'the city has no name'),
    days: z.number().int().default(3),
  }),
})

describe('tool() with a zod schema', () => {
  it("offers the model the schema's JSON Schema: draft-07 (what the central check reads), without $schema", () => {
    expect(forecast.inputSchema).toEqual({
      properties: {
        city: {description: 'The city', type: 'string'},
        days: {default: 3, maximum: Number.MAX_SAFE_INTEGER, minimum: Number.MIN_SAFE_INTEGER, type: 'integer'},
      },
      required: ['city'],
      type: 'object',
    })
  })

  it('hands execute the typed input the schema parsed (defaults filled in), and refuses input that fails either check, telling the model why', async () => {
    received.length = 0
    const client = scripted(
      calls(call('ok', {city: 'Tokyo'}), call('type', {city: 3}), call('refined', {city: ' '})),
      text('done'),
    )
    await Runner.run(new Agent({model: 'm', name: 'a', tools: [forecast]}), 'go', {client})
    expect(received).toEqual([{city: 'Tokyo', days: 3}])
    expect(client.requests[1].filter((m) => m.role === 'tool')).toMatchObject([
      {content: 'Tokyo: sunny for 3 days', isError: false},
      {
        content: 'Error: Invalid input for forecast: "city" must be string. Fix the arguments and call it again.',
        isError: true,
      },
      {
        content:
          'Error: Invalid input for forecast: "city": the city has no name. Fix the arguments and call it again.',
        isError: true,
      },
    ])
  })

  it('refuses, naming the tool, a schema with no JSON form, one that is not an object, and one that cannot convert itself', () => {
    const options = {description: 'd', execute: () => 'x', name: 'when'}
    expect(() => tool({...options, parameters: z.object({at: z.date()})})).toThrow(
      'The parameters of tool when have no JSON Schema: Date cannot be represented in JSON Schema',
    )
    expect(() => tool({...options, parameters: z.string()})).toThrow(
      "The parameters of tool when must describe an object (z.object({...})): a tool's input is one",
    )
    const zod3Like = {'~standard': {validate: (value: unknown) => ({value}), vendor: 'zod', version: 1 as const}}
    expect(() => tool({...options, parameters: zod3Like})).toThrow(
      'The parameters of tool when (a zod schema) cannot give their JSON Schema: use zod 4.2 or later',
    )
  })

  it('keeps what the tool says of itself, for the host to act on', () => {
    const run = tool<{line: string}>({
      describe: ({line}) => `run ${line}`,
      description: 'runs a line',
      execute: () => 'ok',
      kind: 'execute',
      name: 'run',
      parameters: {properties: {line: {type: 'string'}}, type: 'object'},
      subject: ({line}) => ({command: line, kind: 'command'}),
    })
    expect(run.kind).toBe('execute')
    expect(run.subject?.({line: 'ls'})).toEqual({command: 'ls', kind: 'command'})
    expect(run.describe?.({line: 'ls'})).toBe('run ls')
    expect(forecast).not.toHaveProperty('kind')
  })
})
