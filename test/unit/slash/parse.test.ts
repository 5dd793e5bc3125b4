import {describe, expect, it} from 'vitest'

import {parseSlashLine} from '../../../src/core/slash/index.js'

describe('parseSlashLine', () => {
  it.each([
    ['/commit', 'commit', '', []],
    ['/help ', 'help', '', []],
    ['/branch feature-x', 'branch', 'feature-x', ['feature-x']],
    ['/commit-push-pr', 'commit-push-pr', '', []],
    ['/compact   keep the  API notes  ', 'compact', 'keep the  API notes', ['keep', 'the', 'API', 'notes']],
    ['/model\tgpt-5', 'model', 'gpt-5', ['gpt-5']],
    [
      '/compact\nfocus on the tests\nand the docs',
      'compact',
      'focus on the tests\nand the docs',
      ['focus', 'on', 'the', 'tests', 'and', 'the', 'docs'],
    ],
    ['/x2 "quoted words"', 'x2', '"quoted words"', ['"quoted', 'words"']],
    // An MCP prompt: its server's and its own name may hold "_".
    ['/mcp__my_server__args-prompt Paris', 'mcp__my_server__args-prompt', 'Paris', ['Paris']],
  ])('%j is the command', (input, name, args, argv) => {
    expect(parseSlashLine(input)).toEqual({args, argv, kind: 'command', name})
  })

  it.each([
    ['a path', '/usr/bin/env ls'],
    ['a path ending in a slash', '/tmp/'],
    ['a name followed by punctuation', '/help?'],
    ['a capital letter', '/Help'],
    ['a name starting with a digit', '/1x'],
    ['a name starting with "-"', '/-x'],
    ['a slash alone', '/'],
    ['a slash and a blank', '/ help'],
    ['a blank before the slash', ' /help'],
    ['no slash', 'fix the tests'],
    ['a slash later in the line', 'see /etc/hosts'],
    ['an empty prompt', ''],
    ['a non-ASCII name', '/héllo'],
    ['an "_" outside an MCP prompt\'s name', '/snake_case'],
    ['an MCP prompt name in capitals', '/mcp__Server__x'],
  ])('%s is text, sent as typed', (_what, input) => {
    expect(parseSlashLine(input)).toEqual({kind: 'text', text: input})
  })

  it('sends a doubled slash as one slash: the escape for a line that would be a command', () => {
    expect(parseSlashLine('//help me')).toEqual({kind: 'text', text: '/help me'})
    expect(parseSlashLine('//')).toEqual({kind: 'text', text: '/'})
    expect(parseSlashLine('///x')).toEqual({kind: 'text', text: '//x'})
  })
})
