import {describe, expect, it} from 'vitest'

import {JsonNestingError, JsonSyntaxError, MAX_JSON_DEPTH, parseJsonText} from '../../../src/core/config/json-text.js'
import {thrownBy} from '../../helpers/thrown.js'

function failure(text: string) {
  try {
    parseJsonText(text)
  } catch (error) {
    if (error instanceof JsonSyntaxError) return {column: error.column, line: error.line, message: error.message}
    throw error
  }

  throw new Error('parsed')
}

describe('parseJsonText', () => {
  it('parses JSON, a leading byte-order mark included, and reads a blank text as undefined', () => {
    expect(parseJsonText('\uFEFF{"a": [1, true, null]}')).toEqual({a: [1, true, null]})
    expect(parseJsonText(' \n\t')).toBeUndefined()
  })

  it.each([
    ['{\n  "a": 1,\n}', 3, 1, 'trailing comma'],
    ['{"a": 1 "b": 2}', 1, 9, "expected ','"],
    ['{\n  // note\n  "a": 1\n}', 2, 3, 'property name'],
    ['[1, 2,]', 1, 7, 'trailing comma'],
    ["{'a': 1}", 1, 2, 'double quotes'],
    ['{"a": 01}', 1, 8, "expected ','"],
    ['{"a": tru}', 1, 7, 'expected a value'],
    ['{"a": 1', 1, 8, "expected ','"],
    ['{"a": 1} x', 1, 10, 'after the end'],
    ['{"a": "\\q"}', 1, 8, 'escape'],
  ])('locates the error in %j at line %i, column %i', (text, line, column, words) => {
    const found = failure(text)
    expect({column: found.column, line: found.line}).toEqual({column, line})
    expect(found.message).toContain(words)
  })

  it('never quotes the text around the error', () => {
    const found = failure('{\n  "api_key": "sk-live-abcdef0123456789\n}')
    expect(found).toMatchObject({column: 14, line: 2})
    expect(found.message).not.toContain('sk-live')
    expect(failure('{"token": "sk-live-abcdef" "x": 1}').message).not.toContain('sk-live')
  })
})

describe('parseJsonText nesting bound', () => {
  const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`

  it(`parses ${MAX_JSON_DEPTH} levels, and locates where the next one opens`, () => {
    expect(parseJsonText(`{"a": ${arrays(MAX_JSON_DEPTH - 1)}}`)).toBeDefined()
    const error = thrownBy(() => parseJsonText(`{"a":\n ${arrays(MAX_JSON_DEPTH)}}`))
    expect(error).toBeInstanceOf(JsonNestingError)
    expect(error).toBeInstanceOf(JsonSyntaxError)
    expect(error).toMatchObject({
      column: 2 + MAX_JSON_DEPTH - 1,
      line: 2,
      message: `objects and lists nested more than ${MAX_JSON_DEPTH} levels deep`,
    })
  })

  it('reports a text nested hundreds of thousands of levels deep without overflowing the stack', () => {
    expect(thrownBy(() => parseJsonText(arrays(500_000)))).toBeInstanceOf(JsonNestingError)
    // A bracket inside a string is text, not nesting.
    expect(parseJsonText(JSON.stringify({a: '['.repeat(1000)}))).toEqual({a: '['.repeat(1000)})
  })
})
