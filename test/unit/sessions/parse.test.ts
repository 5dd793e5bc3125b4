import {describe, expect, it} from 'vitest'

import {parseTranscript, TranscriptError} from '../../../src/core/sessions/parse.js'

const header = {
  created_at: '2025-01-01T00:00:00.000Z',
  cwd: '/p',
  id: 'abcd',
  model: 'm',
  project_root: '/p',
  provider: 'x',
  type: 'session',
  version: 1,
}
const file = (...lines: object[]) => lines.map((line) => `${JSON.stringify(line)}\n`).join('')
const user = {content: 'hi', type: 'user'}

describe('parseTranscript', () => {
  it('reads the header and the lines after it', () => {
    expect(parseTranscript(file(header, user))).toEqual({header, lines: [user], skipped: []})
  })

  it('skips a last line cut short by a kill, and says so', () => {
    const parsed = parseTranscript(`${file(header, user)}{"type":"assistant","cont`)
    expect(parsed.lines).toEqual([user])
    expect(parsed.skipped).toEqual([{line: 3, reason: 'torn'}])
  })

  it('keeps a last line that only lost its newline', () => {
    expect(parseTranscript(file(header, user).slice(0, -1)).lines).toEqual([user])
  })

  it('skips an unreadable line in the middle (a torn line a later run appended after)', () => {
    const parsed = parseTranscript(`${file(header)}{"type":"assis\n${file(user)}`)
    expect(parsed.lines).toEqual([user])
    expect(parsed.skipped).toEqual([{line: 2, reason: 'unreadable'}])
  })

  it('refuses a file without a header, or from a newer version', () => {
    expect(() => parseTranscript(file(user))).toThrow(TranscriptError)
    expect(() => parseTranscript('{"type":"sess')).toThrow(/session header/)
    expect(() => parseTranscript(file({...header, version: 2}))).toThrow(/newer hanzo-dev/)
  })
})
