import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'

type Message = {role: string; content: string | null}

/** AGENTS.md below cwd: the model gets it with the first tool result that reaches under its directory. */
describe('nested project instructions', () => {
  const dirs = useSandboxDirs('hanzo-nested-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const write = (path: string, text: string) => {
    mkdirSync(join(dirs.project, path, '..'), {recursive: true})
    writeFileSync(join(dirs.project, path), text)
  }
  const read = (path: string) => ({arguments: {path}, name: 'fs_read'})

  it('adds a/b/AGENTS.md and its @imports to the result of the first read under a/b, once; CLAUDE.md the same way', async () => {
    write('AGENTS.md', 'Root rules.\n')
    write('top.ts', 'export const top = 1\n')
    write('a/b/AGENTS.md', 'Nested rules: see @docs/style.md\n')
    write('a/b/docs/style.md', 'Use tabs in a/b.\n')
    write('a/b/file.ts', 'export const file = 1\n')
    write('a/b/other.ts', 'export const other = 2\n')
    write('c/CLAUDE.md', 'Claude rules.\n')
    model = await startFakeModel({
      turns: [
        {tool_calls: [read('top.ts'), read('a/b/file.ts')]},
        {expect: {tool_result_contains: 'Use tabs in a/b.'}, tool_calls: [read('a/b/other.ts')]},
        {expect: {has_tool_result_for: 'fs_read'}, tool_calls: [{arguments: {path: 'c'}, name: 'fs_list'}]},
        {expect: {tool_result_contains: 'Claude rules.'}, text: 'Done.'},
      ],
    })
    const result = await runCli(['run', 'look', '--base-url', model.url], {cwd: dirs.project, env: dirs.box.env})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Done.')

    const messages = (model.requests.at(-1)!.body as {messages: Message[]}).messages
    // The root's AGENTS.md is in the system prompt already: never in a result.
    expect(messages[0].content).toContain('Root rules.')
    const results = messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '')
    expect(results).toHaveLength(4)
    const [top, file, other, list] = results
    expect(top).not.toContain('Instructions from')
    expect(file).toContain('export const file = 1')
    expect(file).toContain('Instructions from a/b/AGENTS.md:\nNested rules: see @docs/style.md\n')
    expect(file).toContain('Instructions from a/b/docs/style.md, imported by a/b/AGENTS.md:\nUse tabs in a/b.')
    expect(other).toContain('export const other = 2')
    expect(other).not.toContain('Instructions from')
    expect(list).toContain('Instructions from c/CLAUDE.md:\nClaude rules.')
    expect(results.join('\n').split('Nested rules').length).toBe(2)
  })
})
