import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execFileSync} from 'node:child_process'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'

const events = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
const auditRecords = (dataHome: string) =>
  readFileSync(join(dataHome, 'hanzo-dev', 'audit.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map(
      (l) => JSON.parse(l) as {tool_name: string; decision: string; reason: string | null; rule_matched: string | null},
    )

describe('custom agents', () => {
  const dirs = useSandboxDirs('hanzo-agent-files-', 'project')
  const userAgents = () => join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'agents')
  const write = (dir: string, name: string, text: string) => {
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, name), text)
  }

  const agent = (...args: string[]) => runCli(['agent', ...args], {cwd: dirs.project, env: dirs.box.env})

  it('lists the user agents, and the project ones once the project is trusted', async () => {
    write(
      userAgents(),
      'reviewer.md',
      '---\ndescription: Reviews a change\ntools: [fs_read, fs_grep]\nmodel: gpt-4.1\n---\nYou review.\n',
    )
    write(
      join(dirs.project, '.hanzo', 'agents'),
      'fixer.md',
      '---\ndescription: Fixes things\ntools: all\npermission_mode: deny\n---\nYou fix.\n',
    )
    // An allow rule makes the project's settings need trust, as a cloned repository's would.
    writeFileSync(join(dirs.project, '.hanzo', 'settings.json'), JSON.stringify({permissions: {fs_read: 'allow'}}))
    const before = await agent('--list', '--json')
    expect(before.exitCode, before.stderr).toBe(0)
    expect(JSON.parse(before.stdout)).toEqual({
      agents: [
        {
          description: 'Reviews a change',
          file: join(userAgents(), 'reviewer.md'),
          model: 'gpt-4.1',
          name: 'reviewer',
          source: 'user',
          tools: ['fs_read', 'fs_grep'],
        },
      ],
      untrusted: [join(dirs.project, '.hanzo', 'agents', 'fixer.md')],
    })
    expect((await agent('--list')).stdout).toContain('load once you run hanzo-dev trust')
    expect(await runCli(['trust', '--yes'], {cwd: dirs.project, env: dirs.box.env})).toMatchObject({exitCode: 0})
    const after = JSON.parse((await agent('--list', '--json')).stdout)
    expect(after.agents.map((a: {name: string; source: string}) => [a.name, a.source])).toEqual([
      ['fixer', 'project'],
      ['reviewer', 'user'],
    ])
    expect(after.agents[0]).toMatchObject({permission_mode: 'deny', tools: 'all'})
  })

  it('trusts a project whose only project settings are its agents, and a changed agent needs trust again (issue 36)', async () => {
    const agents = join(dirs.project, '.hanzo', 'agents')
    write(agents, 'fixer.md', '---\ndescription: Fixes things\n---\nYou fix.\n')
    const review = await runCli(['trust', '--yes'], {cwd: dirs.project, env: dirs.box.env})
    expect(review.exitCode, review.stderr).toBe(0)
    expect(review.stdout).toContain(`${agents}:`)
    expect(review.stdout).toMatch(/^ {4}fixer\.md$/m)
    expect(review.stdout).toContain('Trusted ')
    expect(JSON.parse((await agent('--list', '--json')).stdout).agents).toEqual([
      expect.objectContaining({name: 'fixer', source: 'project'}),
    ])
    const listed = await runCli(['trust', '--list'], {cwd: dirs.project, env: dirs.box.env})
    expect(listed.stdout).toMatch(/settings unchanged {2}\(agents: fixer\.md\)/)

    write(agents, 'fixer.md', '---\ndescription: Fixes things\npermission_mode: allow-all\n---\nYou fix.\n')
    const changed = JSON.parse((await agent('--list', '--json')).stdout)
    expect(changed).toEqual({agents: [], untrusted: [join(agents, 'fixer.md')]})
    expect((await runCli(['trust', '--list'], {cwd: dirs.project, env: dirs.box.env})).stdout).toContain(
      'settings or agents changed since',
    )
  })

  it('names the malformed file and its field', async () => {
    write(userAgents(), 'bad.md', '---\ndescription: d\npermission_mode: yolo\n---\nbody\n')
    const result = await agent('--list')
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain(join(userAgents(), 'bad.md'))
    expect(result.stderr).toContain('`permission_mode`')
    expect(result.stderr).not.toContain('    at ')
  })

  it('says which agents there are when the name is unknown', async () => {
    write(userAgents(), 'reviewer.md', '---\ndescription: Reviews\n---\nYou review.\n')
    const result = await agent('nobody', 'do it')
    expect(result.exitCode).toBe(2)
    expect(result.stderr).toContain('No agent named "nobody" (agents: reviewer)')
  })
})

describe('plan, solve, code and auto on the fake model', () => {
  const dirs = useSandboxDirs('hanzo-agents-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  async function setUp(script: Script) {
    model = await startFakeModel(script)
    writeFileSync(join(dirs.project, 'greeting.txt'), 'hello world\n')
    return (...args: string[]) => runCli([...args, '--base-url', model!.url], {cwd: dirs.project, env: dirs.box.env})
  }

  it('plan: offers no tools, refuses a call the model makes anyway, and prints the plan', async () => {
    const run = await setUp({
      turns: [
        {
          expect: {last_user_contains: 'add a --verbose flag', system_contains: 'You are a planning agent'},
          tool_calls: [{arguments: {content: 'x', path: 'greeting.txt'}, name: 'fs_write'}],
        },
        {
          expect: {has_tool_result_for: 'fs_write'},
          text: '1. Add the flag to src/cli.ts.\n2. Document it in README.md.\n3. Test it.',
        },
      ],
    })
    const result = await run('plan', 'add a --verbose flag', '--permission-mode', 'allow-all', '--output', 'PLAN.md')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('1. Add the flag to src/cli.ts.\n2. Document it in README.md.\n3. Test it.')
    expect(readFileSync(join(dirs.project, 'greeting.txt'), 'utf8')).toBe('hello world\n')
    expect(readFileSync(join(dirs.project, 'PLAN.md'), 'utf8')).toBe(
      '1. Add the flag to src/cli.ts.\n2. Document it in README.md.\n3. Test it.\n',
    )
    expect((model!.requests[0].body as {tools?: unknown[]}).tools ?? []).toEqual([])
  })

  it('solve: reads a file, and a write is refused and audited', async () => {
    const run = await setUp({
      turns: [
        {
          expect: {system_contains: 'You are a problem-solving agent'},
          tool_calls: [{arguments: {path: 'greeting.txt'}, name: 'fs_read'}],
        },
        {
          expect: {tool_result_contains: 'hello world'},
          tool_calls: [{arguments: {content: 'x', path: 'greeting.txt'}, name: 'fs_write'}],
        },
        {text: 'It says hello world.'},
      ],
    })
    const result = await run(
      'solve',
      'what does greeting.txt say?',
      '--permission-mode',
      'allow-all',
      '--output-format',
      'stream-json',
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const results = events(result.stdout).filter((e) => e.type === 'tool_result')
    expect(results.map((e) => [e.name, e.is_error])).toEqual([
      ['fs_read', false],
      ['fs_write', true],
    ])
    expect(readFileSync(join(dirs.project, 'greeting.txt'), 'utf8')).toBe('hello world\n')
    expect(auditRecords(dirs.box.env.XDG_DATA_HOME).map((r) => [r.tool_name, r.decision])).toEqual([
      ['fs_read', 'allow'],
      ['fs_write', 'deny'],
    ])
  })

  it('code: edits a file', async () => {
    const run = await setUp({
      turns: [
        {
          expect: {system_contains: 'You are a coding agent', tools_include: ['fs_edit', 'exec']},
          tool_calls: [
            {arguments: {new_string: 'goodbye', old_string: 'hello', path: 'greeting.txt'}, name: 'fs_edit'},
          ],
        },
        {expect: {has_tool_result_for: 'fs_edit'}, text: 'Changed the greeting.'},
      ],
    })
    const result = await run('code', 'say goodbye', '--permission-mode', 'allow-all')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(readFileSync(join(dirs.project, 'greeting.txt'), 'utf8')).toBe('goodbye world\n')
  })

  it('auto: plan, code with the plan, a review of the diff, and a second code round with the review', async () => {
    execFileSync('git', ['init', '-q'], {cwd: dirs.project})
    const run = await setUp({
      turns: [
        {
          expect: {last_user_contains: 'say goodbye', system_contains: 'You are a planning agent'},
          text: '1. Replace hello with goodbye in greeting.txt.',
        },
        {
          expect: {last_user_contains: 'Replace hello with goodbye', system_contains: 'You are a coding agent'},
          tool_calls: [{arguments: {content: 'goodbye world\n', path: 'greeting.txt'}, name: 'fs_write'}],
        },
        {text: 'Wrote greeting.txt.'},
        {
          expect: {last_user_contains: '+goodbye world', system_contains: 'reviewing a change'},
          text: 'VERDICT: fail\n- greeting.txt lost its exclamation mark',
        },
        {
          expect: {last_user_contains: 'lost its exclamation mark', system_contains: 'You are a coding agent'},
          tool_calls: [{arguments: {content: 'goodbye world!\n', path: 'greeting.txt'}, name: 'fs_write'}],
        },
        {text: 'Added the exclamation mark.'},
        {expect: {last_user_contains: '+goodbye world!'}, text: 'Good now.\nVERDICT: pass'},
      ],
    })
    const result = await run('auto', 'say goodbye', '--permission-mode', 'allow-all')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(model!.requests).toHaveLength(7)
    const headings = result.stdout.split('\n').filter((line) => line.startsWith('## '))
    expect(headings).toEqual([
      '## Plan',
      '## Code',
      '## Review',
      '## Code (round 2)',
      '## Review (round 2)',
      '## Result',
    ])
    expect(result.stdout).toContain('Files changed:\n  greeting.txt\nReview: passed (2 code rounds)')
    expect(readFileSync(join(dirs.project, 'greeting.txt'), 'utf8')).toBe('goodbye world!\n')
  })

  it('auto in stream-json: stage events around each stage, and the result', async () => {
    const run = await setUp({
      turns: [
        {text: '1. Nothing to do.'},
        {text: 'Nothing changed.'},
        {text: 'VERDICT: pass'},
        {expect: {last_user_contains: 'go on'}, text: 'Carried on.'},
      ],
    })
    const result = await run('auto', 'check', '--output-format', 'stream-json')
    expect(result.exitCode, result.stderr).toBe(0)
    const lines = events(result.stdout)
    expect(lines.filter((e) => e.type === 'stage').map((e) => [e.stage, e.event])).toEqual([
      ['plan', 'start'],
      ['plan', 'end'],
      ['code', 'start'],
      ['code', 'end'],
      ['review', 'start'],
      ['review', 'end'],
    ])
    expect(lines.at(-1)).toMatchObject({files_changed: [], review: {verdict: 'pass'}, rounds: 1, type: 'auto_result'})
    // Every stage went into the saved session: `run --continue` carries on after the last one.
    const continued = await run('run', 'go on', '--continue')
    expect(continued.exitCode, continued.stderr).toBe(0)
    expect(continued.stdout).toBe('Carried on.')
    const shown = await runCli(['sessions', 'show', lines.at(-1).session_id], {cwd: dirs.project, env: dirs.box.env})
    expect(shown.stdout).toMatch(/run 1 · plan[\s\S]*run 2 · code[\s\S]*run 3 · review[\s\S]*run 4\b/)
  })

  it('a pre-hook deny and a deny rule apply inside every stage', async () => {
    const script = join(dirs.box.home, 'guard.sh')
    writeFileSync(script, '#!/bin/sh\necho "no commands in this test" >&2\nexit 2\n', {mode: 0o755})
    mkdirSync(join(dirs.project, '.hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.project, '.hanzo', 'settings.json'),
      JSON.stringify({
        hooks: [{command: script, event: 'pre_tool_use', tool_pattern: 'exec'}],
        permissions: {'fs_read(greeting.txt)': 'deny', fs_write: 'allow'},
      }),
    )
    expect(await runCli(['trust', '--yes'], {cwd: dirs.project, env: dirs.box.env})).toMatchObject({exitCode: 0})
    const run = await setUp({
      turns: [
        {text: '1. Run the tests.'},
        {
          tool_calls: [
            {arguments: {command: 'echo ran'}, name: 'exec'},
            {arguments: {path: 'greeting.txt'}, name: 'fs_read'},
          ],
        },
        {expect: {tool_result_contains: 'no commands in this test'}, text: 'Could not run them.'},
        {tool_calls: [{arguments: {path: 'greeting.txt'}, name: 'fs_read'}]},
        {text: 'VERDICT: pass'},
      ],
    })
    const result = await run(
      'auto',
      'run the tests',
      '--permission-mode',
      'allow-all',
      '--output-format',
      'stream-json',
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const results = events(result.stdout).filter((e) => e.type === 'tool_result')
    expect(results.map((e) => [e.name, e.is_error])).toEqual([
      ['exec', true],
      ['fs_read', true],
      ['fs_read', true],
    ])
    // The audit log holds every decision: allow-all allowed exec, then the hook refused it (the
    // first fs_read's denial runs beside it, so the order of those two is not fixed).
    const records = auditRecords(dirs.box.env.XDG_DATA_HOME)
    expect(records.map((r) => `${r.tool_name} ${r.decision}`).sort()).toEqual([
      'exec allow',
      'exec deny',
      'fs_read deny',
      'fs_read deny',
    ])
    expect(records.find((r) => r.tool_name === 'exec' && r.decision === 'deny')).toMatchObject({
      reason: expect.stringContaining('no commands in this test'),
      rule_matched: null,
    })
  })

  it('agent NAME runs a custom agent with its system prompt and tools', async () => {
    const agents = join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'agents')
    mkdirSync(agents, {recursive: true})
    writeFileSync(join(agents, 'greeter.md'), '---\ndescription: Greets\ntools: [fs_read]\n---\nYou are the greeter.\n')
    const run = await setUp({
      turns: [{expect: {system_contains: 'You are the greeter.', tools_include: ['fs_read']}, text: 'Hello!'}],
    })
    // A setting that is wrong is said once, though the command reads the settings and then opens a session.
    mkdirSync(join(dirs.project, '.hanzo'), {recursive: true})
    writeFileSync(join(dirs.project, '.hanzo', 'settings.json'), JSON.stringify({bogus_key: 1}))
    const result = await run('agent', 'greeter', 'greet me')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Hello!')
    expect(unwrapped(result.stderr).match(/bogus_key: unknown setting/g)).toHaveLength(1)
    const offered = ((model!.requests[0].body as {tools?: Array<{function?: {name: string}}>}).tools ?? []).map(
      (t) => t.function?.name,
    )
    expect(offered).toEqual(['fs_read'])
  })
})
