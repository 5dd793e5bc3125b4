/**
 * Strict JSON (RFC 8259) with positions in its errors, nested at most {@link MAX_JSON_DEPTH}
 * levels. A scanner checks the text first, because Node 20's messages often carry no position at
 * all and because what reads a settings document afterwards (schema, merge, redaction) recurses:
 * a file nested thousands of levels deep would end in a RangeError naming no file. Then
 * `JSON.parse` builds the value.
 */

/** Objects and lists in one another, the outermost included; settings documents use a handful. */
export const MAX_JSON_DEPTH = 64

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    /** 1-based. */
    readonly line: number,
    /** 1-based, in UTF-16 code units. */
    readonly column: number,
  ) {
    super(message)
    this.name = 'JsonSyntaxError'
  }
}

/** Valid JSON, but nested deeper than {@link MAX_JSON_DEPTH}: the position is where it passes the limit. */
export class JsonNestingError extends JsonSyntaxError {
  constructor(line: number, column: number) {
    super(`objects and lists nested more than ${MAX_JSON_DEPTH} levels deep`, line, column)
    this.name = 'JsonNestingError'
  }
}

/** Parses JSON text (a leading byte-order mark is allowed); `undefined` for a blank text. */
export function parseJsonText(text: string): unknown {
  const body = text.charCodeAt(0) === 0xfe_ff ? text.slice(1) : text
  if (body.trim() === '') return undefined
  // The scan accepts exactly what JSON.parse does, so JSON.parse's own message (on Node 20 often
  // without a position, and quoting the text) is never seen.
  const failure = findSyntaxError(body)
  if (failure === undefined) return JSON.parse(body)
  const {column, line} = lineAndColumn(body, failure.offset)
  throw failure.tooDeep ? new JsonNestingError(line, column) : new JsonSyntaxError(failure.message, line, column)
}

export function lineAndColumn(text: string, offset: number): {line: number; column: number} {
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++
      lineStart = i + 1
    }
  }

  return {column: offset - lineStart + 1, line}
}

interface Failure {
  message: string
  offset: number
  tooDeep?: boolean
}

type Expect = 'value' | 'first-element' | 'next-element' | 'first-key' | 'next-key' | 'after-value'

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])

/** Walks the text as a JSON value without building it; iterative, so it cannot overflow however deep the text nests. */
function findSyntaxError(text: string): Failure | undefined {
  let i = 0
  let expect: Expect = 'value'
  const stack: Array<'{' | '['> = []
  const fail = (message: string, offset = i): Failure => ({message, offset})
  const found = () => (i >= text.length ? 'the end of the file' : show(text[i]))

  const skipSpace = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }

  const scanString = (): Failure | undefined => {
    const start = i++
    for (;;) {
      if (i >= text.length) return fail('unterminated string', start)
      const code = text.charCodeAt(i)
      if (code === 0x22) {
        i++
        return undefined
      }

      if (code === 0x5c) {
        const escaped = text[i + 1]
        if (escaped !== undefined && ESCAPES.has(escaped)) i += 2
        else if (escaped === 'u' && /^[\da-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) i += 6
        else return fail('invalid escape sequence in string')
        continue
      }

      if (code === 0x0a)
        return fail('unterminated string (a string cannot span lines; write a line break as \\n)', start)
      if (code < 0x20) return fail('control character in string (escape it)')
      i++
    }
  }

  const scanScalar = (): Failure | undefined => {
    const c = text[i]
    if (c === '"') return scanString()
    if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i
      const match = NUMBER.exec(text)
      if (!match) return fail('invalid number')
      i += match[0].length
      return undefined
    }

    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length
        return undefined
      }
    }

    if (c === '/') return fail('comments are not allowed in JSON')
    if (c === "'") return fail('strings must use double quotes')
    return fail(`unexpected ${found()}, expected a value`)
  }

  for (;;) {
    skipSpace()
    const c = text[i]
    const top = stack.at(-1)

    if (expect === 'after-value') {
      if (top === undefined)
        return i >= text.length ? undefined : fail(`unexpected ${found()} after the end of the JSON value`)
      const close = top === '{' ? '}' : ']'
      if (c === ',') {
        i++
        expect = top === '{' ? 'next-key' : 'next-element'
      } else if (c === close) {
        i++
        stack.pop()
      } else {
        return fail(
          `expected ',' or '${close}' after ${top === '{' ? 'a property value' : 'an array element'}, found ${found()}`,
        )
      }

      continue
    }

    if (expect === 'first-key' || expect === 'next-key') {
      if (c === '}') {
        if (expect === 'next-key') return fail('trailing commas are not allowed in JSON')
        i++
        stack.pop()
        expect = 'after-value'
        continue
      }

      if (c !== '"')
        return fail(
          c === "'"
            ? 'property names must use double quotes'
            : `expected a double-quoted property name, found ${found()}`,
        )
      const bad = scanString()
      if (bad) return bad
      skipSpace()
      if (text[i] !== ':') return fail(`expected ':' after the property name, found ${found()}`)
      i++
      expect = 'value'
      continue
    }

    if (c === ']' && expect !== 'value') {
      if (expect === 'next-element') return fail('trailing commas are not allowed in JSON')
      i++
      stack.pop()
      expect = 'after-value'
      continue
    }

    if (i >= text.length) return fail('unexpected end of the file, expected a value')
    if (c === '{' || c === '[') {
      if (stack.length === MAX_JSON_DEPTH) return {message: 'nested too deep', offset: i, tooDeep: true}
      stack.push(c)
      i++
      expect = c === '{' ? 'first-key' : 'first-element'
      continue
    }

    const bad = scanScalar()
    if (bad) return bad
    expect = 'after-value'
  }
}

function show(char: string): string {
  const code = char.charCodeAt(0)
  return code < 0x20 ? `control character U+${code.toString(16).padStart(4, '0').toUpperCase()}` : `'${char}'`
}
