import {describe, expect, it} from 'vitest'

import {classifyMessage} from '../../../src/core/protocol/json-rpc.js'

describe('classifyMessage', () => {
  it('tells requests, notifications and responses apart', () => {
    expect(classifyMessage({id: 1, jsonrpc: '2.0', method: 'initialize'}).kind).toBe('request')
    expect(classifyMessage({jsonrpc: '2.0', method: 'initialized', params: {}}).kind).toBe('notification')
    expect(classifyMessage({id: 'srv-1', jsonrpc: '2.0', result: {decision: 'allow'}}).kind).toBe('response')
    expect(classifyMessage({error: {code: 1, message: 'x'}, id: null, jsonrpc: '2.0'}).kind).toBe('response')
  })

  it('says what is wrong with anything else, keeping the id when there is one', () => {
    expect(classifyMessage([])).toEqual({
      id: null,
      kind: 'invalid',
      reason: 'batches are not supported: send one message at a time',
    })
    expect(classifyMessage({id: 3, method: 'x'})).toEqual({id: 3, kind: 'invalid', reason: 'jsonrpc must be "2.0"'})
    expect(classifyMessage({id: 4, jsonrpc: '2.0', method: ''})).toMatchObject({id: 4, kind: 'invalid'})
    expect(classifyMessage({id: 5, jsonrpc: '2.0', method: 'x', params: 'text'})).toMatchObject({
      id: 5,
      kind: 'invalid',
      reason: 'params must be an object or an array',
    })
    expect(classifyMessage({id: {}, jsonrpc: '2.0', method: 'x'})).toMatchObject({id: null, kind: 'invalid'})
    expect(classifyMessage({id: 6, jsonrpc: '2.0'})).toMatchObject({id: 6, kind: 'invalid'})
  })
})
