import {describe, expect, it} from 'vitest'

import {completePath, findMentions, mentionAt} from '../../../src/core/input/mentions.js'

describe('@ mentions', () => {
  it('finds paths after @ at a word start, quoted ones, and not e-mail addresses or sentence ends', () => {
    const text = 'see @src/a.ts, @"my notes.md" and mail ada@example.com about @b.'
    expect(findMentions(text).map((m) => [m.path, text.slice(m.start, m.end)])).toEqual([
      ['src/a.ts', '@src/a.ts'],
      ['my notes.md', '@"my notes.md"'],
      ['b', '@b'],
    ])
    expect(findMentions('@ alone, @, and @...')).toEqual([])
    expect(findMentions('@first\n@second').map((m) => m.path)).toEqual(['first', 'second'])
  })

  it('knows the mention the cursor is in', () => {
    expect(mentionAt('explain @src/gr', 15)).toEqual({prefix: 'src/gr', start: 8})
    expect(mentionAt('@', 1)).toEqual({prefix: '', start: 0})
    expect(mentionAt('ada@example', 11)).toBeUndefined()
    expect(mentionAt('@src/a.ts then', 14)).toBeUndefined()
  })

  it('completes a level at a time, as far as the candidates agree', () => {
    const files = ['src/app.ts', 'src/api/client.ts', 'src/api/server.ts', 'README.md', 'scripts/build.js']
    expect(completePath('sr', files)).toEqual({candidates: ['src/'], completion: 'src/'})
    expect(completePath('src/a', files)).toEqual({candidates: ['src/api/', 'src/app.ts'], completion: 'src/ap'})
    expect(completePath('src/api/', files)).toEqual({
      candidates: ['src/api/client.ts', 'src/api/server.ts'],
      completion: 'src/api/',
    })
    expect(completePath('s', files)).toEqual({candidates: ['scripts/', 'src/'], completion: 's'})
    expect(completePath('nope', files)).toBeUndefined()
    expect(completePath('', files, 2)?.candidates).toEqual(['README.md', 'scripts/'])
  })
})
