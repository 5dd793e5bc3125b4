import {toolError, toolOk} from '@hanzo-dev/sdk'
import {Chalk} from 'chalk'
import {describe, expect, it} from 'vitest'

import {toolResultLines} from '../../../src/cli/tool-result-lines.js'

const plain = new Chalk({level: 0})
const lines = (result: ReturnType<typeof toolOk>, verbose = false) => toolResultLines(result, {style: plain, verbose})
// The model's text is not what the lines are made of: the details are.
const execResult = (stdout: string, stderr = '', exitCode: number | null = 1, signal?: string) =>
  toolOk('(the model reads this)', {exitCode, kind: 'execute', stderr, stdout, ...(signal ? {signal} : {})})

describe('the summary of a tool result, from its details', () => {
  it('a command: the exit code and the first lines of its output, stdout then stderr; more with verbose', () => {
    const result = execResult('a\nb', 'warning: c\nd')
    expect(lines(result)).toEqual(['  ↳ exit 1', '    a', '    b', '    warning: c', '    … 1 more line'])
    expect(lines(result, true)).toEqual(['  ↳ exit 1', '    a', '    b', '    warning: c', '    d'])
    expect(lines(execResult('', '', null, 'SIGTERM'))).toEqual(['  ↳ killed by signal SIGTERM'])
  })

  it('defuses what a command wrote for the terminal to obey', () => {
    expect(lines(execResult('\u001B]0;owned\u0007\u001B[2Jtext'))[1]).toBe('    ^[]0;owned^G^[[2Jtext')
  })

  it('an edit: the lines changed; the diff with verbose; over several files, their count and each named', () => {
    const result = toolOk('Edited a.txt', {
      files: [{after: 'new\nmore\nsame\n', before: 'old\nsame\n', path: 'a.txt'}],
      kind: 'edit',
    })
    expect(lines(result)).toEqual(['  ↳ +2 -1 lines'])
    expect(lines(result, true)).toEqual([
      '  ↳ +2 -1 lines',
      '    @@ -1,2 +1,3 @@',
      '    -old',
      '    +new',
      '    +more',
      '     same',
    ])
    const two = toolOk('', {
      files: [
        {after: 'x\n', before: null, path: 'a.txt'},
        {after: null, before: 'y\n', path: 'b.txt'},
      ],
      kind: 'edit',
    })
    expect(lines(two)).toEqual(['  ↳ 2 files, +1 -1 lines'])
    expect(lines(two, true)).toContain('    b.txt')
  })

  it('an edit whose text before is unknown: the result as a tool without details', () => {
    expect(lines(toolOk('Wrote a.bin (3 bytes).', {files: [{after: 'x', path: 'a.bin'}], kind: 'edit'}))).toEqual([
      '  ↳ Wrote a.bin (3 bytes).',
    ])
  })

  it('a read: the lines read or the matches found; others: a one-line result itself, else its line count', () => {
    expect(lines(toolOk('     1\tone\n     2\ttwo', {kind: 'read', lines: 2}))).toEqual(['  ↳ 2 lines'])
    expect(lines(toolOk('a:1:x', {kind: 'read', matches: 1}))).toEqual(['  ↳ 1 match'])
    expect(lines(toolOk('Created a.txt (3 bytes).'))).toEqual(['  ↳ Created a.txt (3 bytes).'])
    expect(lines(toolOk('a\nb\nc'))).toEqual(['  ↳ 3 lines'])
    expect(lines(toolOk(''))).toEqual(['  ↳ (no output)'])
  })

  it('a failure: its reason; the rest with verbose', () => {
    const failed = toolError('timed out after 5 ms\nthe command was killed', '--- stdout ---\npartial')
    expect(lines(failed)).toEqual(['  ↳ timed out after 5 ms'])
    expect(lines(failed, true)).toEqual([
      '  ↳ timed out after 5 ms',
      '    the command was killed',
      '    --- stdout ---',
      '    partial',
    ])
  })

  it('a denial: its whole reason, which ends with the command that allows the call', () => {
    const hint = `hanzo-dev config set 'permissions.exec(${'x'.repeat(200)})' allow --tier local`
    expect(
      lines(toolError(`exec needs approval and no one can be asked in this run. Allow it with: ${hint}`))[0],
    ).toMatch(new RegExp(`${hint.replaceAll(/[()]/g, '\\$&')}$`))
  })
})
