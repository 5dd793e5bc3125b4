import {describe, expect, it} from 'vitest'

import {Trace} from '../../../src/core/tracing/index.js'
import {Recorder} from './recorder.js'

describe('Trace and Span', () => {
  it('ids: trace_ and 32 hex digits, span_ and 24, never repeated', () => {
    const trace = new Trace('w', [])
    const traceIds = new Set(Array.from({length: 1000}, () => new Trace('w', []).id))
    const spanIds = new Set(Array.from({length: 1000}, () => trace.startSpan({model: 'm', type: 'generation'}).id))
    expect(traceIds.size).toBe(1000)
    expect(spanIds.size).toBe(1000)
    for (const id of traceIds) expect(id).toMatch(/^trace_[0-9a-f]{32}$/)
    for (const id of spanIds) expect(id).toMatch(/^span_[0-9a-f]{24}$/)
  })

  it('serializes as the wire format, parent ids linking the spans', () => {
    const recorder = new Recorder()
    const trace = new Trace('workflow', [recorder], 'group-1', {ticket: 'T-1'}).start()
    const root = trace.startSpan({model: 'm', name: 'a', tools: [], type: 'agent'})
    const child = trace.startSpan({name: 'fs_read', type: 'function'}, root)
    child.end()
    root.end()
    expect(JSON.parse(JSON.stringify(trace))).toEqual({
      group_id: 'group-1',
      id: trace.id,
      metadata: {ticket: 'T-1'},
      object: 'trace',
      workflow_name: 'workflow',
    })
    expect(recorder.spans.map((span) => [span.id, span.parent_id])).toEqual([
      [child.id, root.id],
      [root.id, null],
    ])
    expect(recorder.spans[0]).toEqual({
      ended_at: child.endedAt,
      error: null,
      id: child.id,
      object: 'trace.span',
      parent_id: root.id,
      span_data: {name: 'fs_read', type: 'function'},
      started_at: child.startedAt,
      trace_id: trace.id,
    })
    expect(new Date(recorder.spans[0].started_at).toISOString()).toBe(recorder.spans[0].started_at)
  })

  it('a span ends once: the first end and its error stand', () => {
    const recorder = new Recorder()
    const span = new Trace('w', [recorder]).startSpan({model: 'm', type: 'generation'})
    span.end({message: 'first'})
    span.end({message: 'second'})
    span.end()
    expect(recorder.log).toEqual(['start generation', 'end generation'])
    expect(recorder.spans[0].error).toEqual({message: 'first'})
  })
})
