import {toolError, toolOk} from '@hanzo-dev/sdk'
import {Chalk} from 'chalk'
import {describe, expect, it} from 'vitest'

import {toolResultLines} from '../../../src/cli/tool-result-lines.js'

const plain = new Chalk({level: 0})
const call = (name: string) => ({arguments: '{}', id: 'c1', input: {}, name})
const lines = (name: string, result: ReturnType<typeof toolOk>, verbose = false) => toolResultLines(call(name), result, {style: plain, verbose})
const execResult = (stdout: string, stderr = '(none)', status = 'exit code: 1') => toolOk(`${status}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`)

describe('the summary of a tool result', () => {
  it('exec: the exit code and the first lines of its output, stdout then stderr; more with verbose', () => {
    const result = execResult('a\nb', 'warning: c\nd')
    expect(lines('exec', result)).toEqual(['  ↳ exit 1', '    a', '    b', '    warning: c', '    … 1 more line'])
    expect(lines('exec', result, true)).toEqual(['  ↳ exit 1', '    a', '    b', '    warning: c', '    d'])
    expect(lines('exec', execResult('(none)', '(none)', 'killed by signal SIGTERM'))).toEqual(['  ↳ killed by signal SIGTERM'])
  })

  it('defuses what a command wrote for the terminal to obey', () => {
    expect(lines('exec', execResult('\u001B]0;owned\u0007\u001B[2Jtext'))[1]).toBe('    ^[]0;owned^G^[[2Jtext')
  })

  it('fs_edit: the lines changed; the diff with verbose', () => {
    const result = toolOk('Edited a.txt: replaced 1 occurrence.\n\n--- a.txt\n+++ a.txt\n@@ -1,2 +1,3 @@\n-old\n+new\n+more\n same\n')
    expect(lines('fs_edit', result)).toEqual(['  ↳ +2 -1 lines'])
    expect(lines('fs_edit', result, true)).toEqual(['  ↳ +2 -1 lines', '    @@ -1,2 +1,3 @@', '    -old', '    +new', '    +more', '     same'])
  })

  it('fs_read: the lines read; others: a one-line result itself, else its line count', () => {
    expect(lines('fs_read', toolOk('     1\tone\n     2\ttwo\n\n[Showed lines 1-2 of a.txt (9 bytes in all); it continues: ...]'))).toEqual(['  ↳ 2 lines'])
    expect(lines('fs_write', toolOk('Created a.txt (3 bytes).'))).toEqual(['  ↳ Created a.txt (3 bytes).'])
    expect(lines('fs_list', toolOk('a\nb\nc'))).toEqual(['  ↳ 3 lines'])
    expect(lines('mcp__x__y', toolOk(''))).toEqual(['  ↳ (no output)'])
  })

  it('a failure: its reason; the rest with verbose', () => {
    const failed = toolError('timed out after 5 ms\nthe command was killed', '--- stdout ---\npartial')
    expect(lines('exec', failed)).toEqual(['  ↳ timed out after 5 ms'])
    expect(lines('exec', failed, true)).toEqual(['  ↳ timed out after 5 ms', '    the command was killed', '    --- stdout ---', '    partial'])
  })

  it('a denial: its whole reason, which ends with the command that allows the call', () => {
    const hint = `hanzo-dev config set 'permissions.exec(${'x'.repeat(200)})' allow --tier local`
    expect(lines('exec', toolError(`exec needs approval and no one can be asked in this run. Allow it with: ${hint}`))[0]).toMatch(new RegExp(`${hint.replaceAll(/[()]/g, '\\$&')}$`))
  })
})
