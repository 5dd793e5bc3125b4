import {describe, expect, it} from 'vitest'

import {historyTokens, messageTokens, TokenLedger} from '../../../src/core/agent/token-count.js'
import type {Message} from '../../../src/core/agent/types.js'

const user = (content: string): Message => ({content, role: 'user'})

describe('token estimate', () => {
  it('is 4 per message plus a quarter of the UTF-8 bytes, rounded up', () => {
    expect(messageTokens(user(''))).toBe(4)
    expect(messageTokens(user('abcd'))).toBe(5)
    expect(messageTokens(user('abcde'))).toBe(6)
    // Three CJK characters are 9 bytes; counting UTF-16 units would give 1.
    expect(messageTokens(user('日本語'))).toBe(7)
  })

  it('counts each tool call of an assistant message: 4 plus its name and arguments', () => {
    const call = {arguments: '{"path":"a.ts"}', id: 'c1', input: {path: 'a.ts'}, name: 'fs_read'}
    expect(messageTokens({content: '', role: 'assistant', toolCalls: [call, {...call, id: 'c2'}]})).toBe(
      4 + 2 * (4 + 6),
    )
    expect(messageTokens({content: 'ok', isError: false, role: 'tool', toolCallId: 'c1', toolName: 'fs_read'})).toBe(5)
  })

  it('sums a history', () => {
    expect(historyTokens([])).toBe(0)
    expect(historyTokens([user('abcd'), user('')])).toBe(9)
  })
})

/** A history whose first `sealed` messages throw when read: a sync that reads them is O(history). */
function sealedHistory(messages: Message[], sealed: number): Message[] {
  return new Proxy(messages, {
    get(target, key, receiver) {
      if (typeof key === 'string' && /^\d+$/.test(key) && Number(key) < sealed)
        throw new Error(`message ${key} was read again`)
      return Reflect.get(target, key, receiver)
    },
  })
}

describe('TokenLedger', () => {
  it('adds only the messages appended since the last sync', () => {
    const ledger = new TokenLedger()
    const history = [user('abcd'), user('abcd')]
    expect(ledger.sync(history)).toBe(10)
    history.push(user('abcdefgh'))
    expect(ledger.sync(sealedHistory(history, 2))).toBe(16)
    expect(ledger.sync(sealedHistory(history, 3))).toBe(16)
  })

  it('sums a rewritten history again after reset, and a shorter one by itself', () => {
    const ledger = new TokenLedger()
    const history = [user('abcd'), user('abcd'), user('abcd')]
    ledger.sync(history)
    history.splice(0, 3, user(''), user(''), user(''))
    ledger.reset()
    expect(ledger.sync(history)).toBe(12)
    expect(ledger.sync([user('abcd')])).toBe(5)
  })
})
