import {describe, expect, it} from 'vitest'

import {type SubagentProgress, Subagents} from '../../../src/adapters/tools/subagents.js'

describe('Subagents: the task tool children of a session', () => {
  it('starts at most `limit` at once; one that ends makes room', () => {
    const subagents = new Subagents(2)
    const first = subagents.start('explore', 'one')!
    expect(subagents.start('general', 'two')).toBeDefined()
    expect(subagents.start('general', 'three')).toBeUndefined()
    first.end('completed')
    expect(subagents.start('general', 'three')).toBeDefined()
  })

  it('tells each watcher of a start, each tool use and the end, and stops when asked', () => {
    const subagents = new Subagents()
    const seen: SubagentProgress[] = []
    const stop = subagents.watch((progress) => seen.push(progress))
    const child = subagents.start('explore', 'find the loader')!
    child.toolUsed()
    child.toolUsed()
    child.end('failed')
    stop()
    subagents.start('general', 'unseen')
    expect(seen.map(({status, toolUses}) => `${status} ${toolUses}`)).toEqual([
      'running 0',
      'running 1',
      'running 2',
      'failed 2',
    ])
    expect(seen[0]).toMatchObject({description: 'find the loader', id: 1, type: 'explore'})
  })
})
