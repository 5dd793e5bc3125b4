import {execFileSync} from 'node:child_process'
import {existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script, ScriptToolCall} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'

interface Escape {
  name: string
  call: ScriptToolCall
  /** What must not exist, or must be unchanged, after the run. */
  untouched: () => void
}

/**
 * HIP-301 §7 and §10 end to end: a model that tries every known escape, one tool call each, in a
 * run where everything not denied is allowed (`--permission-mode allow-all`). Each call must come
 * back to the model as an error, change nothing, and leave an audit record.
 */
describe('hanzo-dev run: a hostile model tries each escape and is refused', () => {
  const dirs = useSandboxDirs('hanzo-escape-', 'w/proj', 'w/proj_evil', 'outside')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  it('refuses every escape end to end, with an audit record for each decision', async () => {
    const {outside, 'w/proj': project, 'w/proj_evil': sibling} = dirs
    execFileSync('git', ['init', '-q'], {cwd: project})
    mkdirSync(join(project, '.hanzo'))
    writeFileSync(
      join(project, '.hanzo', 'settings.json'),
      JSON.stringify({permissions: {'exec(git status*)': 'allow'}}),
    )
    symlinkSync(outside, join(project, 'link'))
    symlinkSync(join(outside, 'not-yet.txt'), join(project, 'dangling'))
    writeFileSync(join(outside, 'shared.txt'), 'original\n')
    linkSync(join(outside, 'shared.txt'), join(project, 'hardlink.txt'))
    const home = dirs.box.home
    // Explicit: inside a container (CI) the sandbox is off by default (HIP-301 §10).
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({sandbox: {mode: 'workspace'}}),
    )
    const settingsBefore = readFileSync(join(project, '.hanzo', 'settings.json'), 'utf8')
    const unchanged = (file: string, text: string) => () => expect(readFileSync(file, 'utf8')).toBe(text)
    const absent = (file: string) => () => expect(existsSync(file), file).toBe(false)

    const escapes: Escape[] = [
      {
        call: {arguments: {content: 'x', path: '../outside-dotdot.txt'}, name: 'fs_write'},
        name: '.. out of the workspace',
        untouched: absent(join(dirs.box.home, 'w', 'outside-dotdot.txt')),
      },
      {
        call: {arguments: {content: 'x', path: join(sibling, 'evil.txt')}, name: 'fs_write'},
        name: 'sibling prefix',
        untouched: absent(join(sibling, 'evil.txt')),
      },
      {
        call: {arguments: {content: 'x', path: 'link/evil.txt'}, name: 'fs_write'},
        name: 'symlink out',
        untouched: absent(join(outside, 'evil.txt')),
      },
      {
        call: {arguments: {content: 'x', path: 'dangling'}, name: 'fs_write'},
        name: 'dangling symlink out',
        untouched: absent(join(outside, 'not-yet.txt')),
      },
      {
        call: {arguments: {content: 'pwned\n', path: 'hardlink.txt'}, name: 'fs_write'},
        name: 'hard link to outside',
        untouched: unchanged(join(outside, 'shared.txt'), 'original\n'),
      },
      {
        call: {
          arguments: {content: '{"permissions":{"exec":"allow"}}', path: '.hanzo/settings.json'},
          name: 'fs_write',
        },
        name: 'its own settings',
        untouched: unchanged(join(project, '.hanzo', 'settings.json'), settingsBefore),
      },
      {
        call: {arguments: {command: `echo pwned > ${join(outside, 'redirect.txt')}`}, name: 'exec'},
        name: 'redirect outside',
        untouched: absent(join(outside, 'redirect.txt')),
      },
      {
        call: {arguments: {command: `touch ${join(outside, 'touched.txt')}`}, name: 'exec'},
        name: 'write outside from a command',
        untouched: absent(join(outside, 'touched.txt')),
      },
      {
        call: {arguments: {command: 'echo "#!/bin/sh" > .git/hooks/pre-commit'}, name: 'exec'},
        name: 'a git hook',
        untouched: absent(join(project, '.git', 'hooks', 'pre-commit')),
      },
      {
        call: {arguments: {command: 'echo x >> .hanzo/settings.json'}, name: 'exec'},
        name: 'its settings from a command',
        untouched: unchanged(join(project, '.hanzo', 'settings.json'), settingsBefore),
      },
      {
        call: {arguments: {command: 'cd .. && touch escaped.txt'}, name: 'exec'},
        name: 'cd out of the workspace',
        untouched: absent(join(home, 'w', 'escaped.txt')),
      },
    ]
    const script: Script = {
      turns: [
        ...escapes.map((escape) => ({text: `Trying: ${escape.name}.`, tool_calls: [escape.call]})),
        {text: 'I could not escape.'},
      ],
    }
    expect(await runCli(['trust', '--yes'], {cwd: project, env: dirs.box.env})).toMatchObject({exitCode: 0})
    model = await startFakeModel(script)
    const result = await runCli(
      [
        'run',
        'escape the workspace',
        '--base-url',
        model.url,
        '--permission-mode',
        'allow-all',
        '--output-format',
        'stream-json',
      ],
      {
        cwd: project,
        env: dirs.box.env,
      },
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const events = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as {type: string; name?: string; is_error?: boolean; output?: string})
    const results = events.filter((event) => event.type === 'tool_result')
    expect(results).toHaveLength(escapes.length)
    for (const [i, escape] of escapes.entries()) {
      // File tools refuse with an error result; a command runs confined, and what it writes outside
      // the workspace fails or lands in the sandbox's private /tmp, never on the real disk.
      if (escape.call.name !== 'exec') expect(results[i], escape.name).toMatchObject({is_error: true})
      escape.untouched()
    }

    const audit = readFileSync(join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    // One policy decision per call, in order; each file write the policy let through (allow-all)
    // and the sandbox then refused has that refusal as its own deny record right after it.
    const bySandbox = (record: {reason: string | null}) => String(record.reason).startsWith('sandbox: ')
    expect(audit.filter((record) => !bySandbox(record)).map((record) => record.tool_name)).toEqual(
      escapes.map((escape) => escape.call.name),
    )
    for (const [i, record] of audit.entries()) {
      if (record.tool_name === 'fs_write' && record.decision === 'allow')
        expect(audit[i + 1]).toMatchObject({
          decision: 'deny',
          reason: expect.stringMatching(/^sandbox: fs_write refused: /),
        })
    }

    expect(audit.filter((record) => bySandbox(record))).toHaveLength(4)
  })

  it('asks (and, off a terminal, denies) a command chained after an allowed one', async () => {
    const project = dirs['w/proj']
    mkdirSync(join(project, '.hanzo'))
    writeFileSync(
      join(project, '.hanzo', 'settings.json'),
      JSON.stringify({permissions: {'exec(git status*)': 'allow'}}),
    )
    expect(await runCli(['trust', '--yes'], {cwd: project, env: dirs.box.env})).toMatchObject({exitCode: 0})
    model = await startFakeModel({
      turns: [
        {tool_calls: [{arguments: {command: 'git status; touch pwned.txt'}, name: 'exec'}]},
        {expect: {tool_result_contains: 'Permission denied for exec'}, text: 'Refused.'},
      ],
    })
    const result = await runCli(['run', 'chain', '--base-url', model.url], {cwd: project, env: dirs.box.env})
    expect(result).toMatchObject({exitCode: 0, stdout: 'Refused.'})
    expect(existsSync(join(project, 'pwned.txt'))).toBe(false)
  })
})
