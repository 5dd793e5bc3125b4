import {readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {CLI, runCli, useSandboxDirs} from '../helpers/cli.js'
import {Terminals} from '../helpers/terminal.js'

const SOURCE = 'one\ntwo\nthree\nfour\nfive\n'
const EDITS = [
  {new_string: 'TWO', old_string: 'two'},
  {new_string: 'FOUR\nand more', old_string: 'four'},
]

/** A model that asks for the two edits, then, once the result is back, answers. */
function editScript(edits: unknown[]): Script {
  return {
    turns: [
      {
        expect: {tools_include: ['fs_edit', 'fs_multi_edit']},
        text: 'I will edit.',
        tool_calls: [{arguments: {edits, path: 'a.txt'}, name: 'fs_multi_edit'}],
      },
      {expect: {has_tool_result_for: 'fs_multi_edit'}, text: 'Done.'},
    ],
  }
}

describe('fs_multi_edit in hanzo-dev run', () => {
  const dirs = useSandboxDirs('hanzo-multi-edit-', 'project')
  const script = (edits: unknown[]) => {
    const file = join(dirs.box.home, 'edit.json')
    writeFileSync(file, JSON.stringify(editScript(edits)))
    writeFileSync(join(dirs.project, 'a.txt'), SOURCE)
    return file
  }

  const transcriptResults = () => {
    const sessions = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions')
    const [project] = readdirSync(sessions)
    const [file] = readdirSync(join(sessions, project))
    return readFileSync(join(sessions, project, file), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((line) => line.type === 'tool_result')
  }

  it('makes both edits, and says so under the call', async () => {
    const result = await runCli(
      ['run', 'edit a.txt', '--fake-model', script(EDITS), '--permission-mode', 'allow-all', '--verbose'],
      {cwd: dirs.project, env: dirs.box.env},
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('I will edit.\nDone.')
    expect(result.stderr).toContain('⏺ fs_multi_edit a.txt (2 edits)\n  ↳ +3 -2 lines\n')
    expect(result.stderr).toContain('    -two\n    +TWO\n')
    expect(readFileSync(join(dirs.project, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\nFOUR\nand more\nfive\n')
  })

  it('writes nothing when one edit fails, and the model reads which one', async () => {
    const result = await runCli(
      [
        'run',
        'edit a.txt',
        '--fake-model',
        script([EDITS[0], {new_string: 'x', old_string: 'missing'}]),
        '--permission-mode',
        'allow-all',
      ],
      {cwd: dirs.project, env: dirs.box.env},
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(readFileSync(join(dirs.project, 'a.txt'), 'utf8')).toBe(SOURCE)
    expect(transcriptResults()).toMatchObject([
      {
        content: expect.stringMatching(/^Error: edit 2 of 2 failed .*old_string was not found in a\.txt/),
        is_error: true,
      },
    ])
  })

  describe('on a terminal', () => {
    let terminals: Terminals
    beforeEach(() => {
      terminals = Terminals.create(dirs.box.env)
    })
    afterEach(() => terminals.close())

    it('asks with the diff of all the edits together, and writes them once allowed', async () => {
      await terminals.open('ask', `${process.execPath} ${CLI} run 'edit a.txt' --fake-model ${script(EDITS)}`, {
        cwd: dirs.project,
      })
      const question = await terminals.waitFor('ask', 'Allow fs_multi_edit')
      const diffAt = question.indexOf('  @@ -1,5 +1,6 @@')
      expect(question.slice(diffAt, diffAt + 9)).toEqual([
        '  @@ -1,5 +1,6 @@',
        '   one',
        '  -two',
        '  +TWO',
        '   three',
        '  -four',
        '  +FOUR',
        '  +and more',
        '   five',
      ])
      expect(question.findIndex((line) => line.includes('Allow fs_multi_edit: a.txt (2 edits)?'))).toBeGreaterThan(
        diffAt,
      )
      expect(readFileSync(join(dirs.project, 'a.txt'), 'utf8')).toBe(SOURCE)
      await terminals.keys('ask', 'Enter')
      expect(await terminals.exitStatus('ask')).toBe(0)
      expect(readFileSync(join(dirs.project, 'a.txt'), 'utf8')).toBe('one\nTWO\nthree\nFOUR\nand more\nfive\n')
    })
  })
})
