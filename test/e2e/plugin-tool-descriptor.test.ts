import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {beforeAll, describe, expect, it} from 'vitest'

import {CLI, REPO_ROOT, runCli, unwrapped} from '../helpers/cli.js'
import {useChatTerminals} from '../helpers/terminal.js'

/** A third-party plugin whose one tool, `fixture_upcase`, says it edits the file it names (kind, subject, title, preview, details). */
const PLUGIN = join(REPO_ROOT, 'test', 'fixtures', 'plugins', 'editor')
const upcase = (path: string) => ({arguments: {path}, name: 'fixture_upcase'})

/**
 * [host-port] item 2: a plugin's tool of kind `edit` gets from the host, with no change to the
 * host, what the built-in fs_edit gets: the diff before the question, permission rules and the
 * protected files by its subject, and a result line from its details.
 */
describe('a plugin tool that describes itself', () => {
  const state = useChatTerminals('hanzo-descriptor-')
  const cli = (args: string[]) => runCli(args, {cwd: state.project, env: state.box.env})
  beforeAll(async () => {
    const link = await cli(['plugins', 'link', '--no-install', PLUGIN])
    expect(link.exitCode, link.stderr).toBe(0)
  })

  it('on a terminal: the diff and its title before the question, the lines it changed after', async () => {
    writeFileSync(join(state.project, 'notes.txt'), 'keep\nshout\n')
    const model = state.script('upcase', [
      {tool_calls: [upcase('notes.txt')]},
      {expect: {tool_result_contains: 'Upper-cased notes.txt'}, text: 'Done.'},
    ])
    await state.terminals.open('ask', `${process.execPath} ${CLI} run 'shout' --fake-model ${model}`, {
      cwd: state.project,
    })
    const question = await state.terminals.waitFor('ask', 'Allow fixture_upcase')
    const diffAt = question.indexOf('  @@ -1,2 +1,2 @@')
    expect(question.slice(diffAt, diffAt + 5)).toEqual([
      '  @@ -1,2 +1,2 @@',
      '  -keep',
      '  -shout',
      '  +KEEP',
      '  +SHOUT',
    ])
    expect(question.findIndex((line) => line.includes('Allow fixture_upcase: upper-case notes.txt?'))).toBeGreaterThan(
      diffAt,
    )
    await state.terminals.keys('ask', 'Enter')
    expect(await state.terminals.exitStatus('ask')).toBe(0)
    const screen = await state.terminals.screen('ask')
    // The call as its tool describes it, then (after the question) the lines it changed.
    expect(screen.indexOf('  ↳ +2 -2 lines')).toBeGreaterThan(screen.indexOf('⏺ fixture_upcase upper-case notes.txt'))
    expect(screen).toContain('⏺ fixture_upcase upper-case notes.txt')
    expect(readFileSync(join(state.project, 'notes.txt'), 'utf8')).toBe('KEEP\nSHOUT\n')
  })

  it('rules match its subject, the protected files hold for it, and a denial suggests a rule naming the file', async () => {
    for (const name of ['a.txt', 'b.txt']) writeFileSync(join(state.project, name), `${name}\n`)
    mkdirSync(join(state.project, '.hanzo'), {recursive: true})
    writeFileSync(
      join(state.project, '.hanzo', 'settings.local.json'),
      JSON.stringify({permissions: {'fixture_upcase(a.txt)': 'allow'}}),
    )
    expect(await cli(['trust', '--yes'])).toMatchObject({exitCode: 0})
    const run = async (path: string, ...flags: string[]) => {
      const model = state.script(`upcase-${path.replaceAll('/', '-')}`, [{tool_calls: [upcase(path)]}, {text: 'Done.'}])
      return cli(['run', 'shout', '--fake-model', model, '--output-format', 'stream-json', ...flags])
    }

    // Off a terminal no one can be asked: the rule for a.txt allows it, b.txt is refused with the rule that would allow it.
    expect((await run('a.txt')).exitCode).toBe(0)
    expect(readFileSync(join(state.project, 'a.txt'), 'utf8')).toBe('A.TXT\n')
    const refused = await run('b.txt')
    expect(unwrapped(refused.stdout)).toContain("'permissions.fixture_upcase(b.txt)' allow")
    expect(readFileSync(join(state.project, 'b.txt'), 'utf8')).toBe('b.txt\n')
    // Writing the project's settings is denied to it as to fs_write, whatever the session mode.
    const settings = await run('.hanzo/settings.local.json', '--permission-mode', 'allow-all')
    expect(settings.stdout).toContain('Permission denied for fixture_upcase')
    expect(readFileSync(join(state.project, '.hanzo', 'settings.local.json'), 'utf8')).toContain(
      'fixture_upcase(a.txt)',
    )
  })
})
