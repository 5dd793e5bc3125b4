import {describe, expect, it} from 'vitest'

import {firstCommandWord} from '../src/command-word.js'
import {parseHooks} from '../src/hook-config.js'

describe('parseHooks', () => {
  it('fills the defaults of a minimal hook', () => {
    expect(parseHooks([{command: './check.sh', event: 'pre_tool_use'}])).toEqual({
      hooks: [
        {
          hook: {command: './check.sh', event: 'pre_tool_use', fail_open: false, timeout_ms: 5000, tool_pattern: '*'},
          index: 0,
          label: 'hooks[0] pre_tool_use',
        },
      ],
    })
  })

  it('keeps the tier a hook came from in its label', () => {
    const [entry] = parseHooks([{command: 'true', event: 'stop', tier: 'project'}]).hooks
    expect(entry).toMatchObject({hook: {tier: 'project'}, label: 'hooks[0] stop (project)'})
  })

  it.each([
    [{command: 'x', event: 'before_tool'}, /unknown event "before_tool"; use one of pre_tool_use, post_tool_use/],
    [{event: 'pre_tool_use'}, /"command" must be a non-empty string/],
    [{command: '   ', event: 'pre_tool_use'}, /"command" must be a non-empty string/],
    [{command: 'x', event: 'pre_tool_use', timeout_ms: 0}, /"timeout_ms" must be a whole number/],
    [{command: 'x', event: 'pre_tool_use', timeout_ms: 1.5}, /"timeout_ms" must be a whole number/],
    [{command: 'x', event: 'pre_tool_use', timeout_ms: '5000'}, /"timeout_ms" must be a whole number/],
    [{command: 'x', event: 'pre_tool_use', timeout_ms: 3_600_000}, /from 1 to 600000/],
    [{command: 'x', event: 'pre_tool_use', tool_pattern: 3}, /"tool_pattern" must be a non-empty string/],
    [{command: 'x', event: 'pre_tool_use', fail_open: 'yes'}, /"fail_open" must be true or false/],
    ['echo hi', /must be an object/],
  ])('reports %j by position', (entry, message) => {
    const [parsed] = parseHooks([{command: 'true', event: 'stop'}, entry]).hooks.slice(1)
    expect(parsed).toMatchObject({index: 1, problem: expect.stringMatching(message)})
  })

  it('accepts no hooks and rejects a non-list', () => {
    expect(parseHooks(undefined)).toEqual({hooks: []})
    expect(parseHooks({pre_tool_use: 'x'}).problem).toMatch(/"hooks" must be a list/)
  })
})

describe('firstCommandWord', () => {
  it.each([
    ['./scripts/check.sh --strict', './scripts/check.sh'],
    ['  node hook.js', 'node'],
    ['FOO=1 BAR="a b" lint-hook "$HANZO_TOOL_NAME"', 'lint-hook'],
    ["'/opt/my hooks/deny' arg", '/opt/my hooks/deny'],
    ['/opt/my\\ hooks/deny', '/opt/my hooks/deny'],
    ['exit 2', 'exit'],
    ['grep -q x|| exit 2', 'grep'],
    ['check;exit', 'check'],
    ['~/bin/guard', '/home/me/bin/guard'],
  ])('%s -> %s', (command, word) => {
    expect(firstCommandWord(command, '/home/me')).toEqual({word})
  })

  it.each([
    ['"unterminated', /unbalanced " quote/],
    ['| cat', /starts with shell syntax/],
    ['A=1', /empty/],
  ])('%s is a problem', (command, message) => {
    expect(firstCommandWord(command, '/home/me')).toEqual({problem: expect.stringMatching(message)})
  })
})
