import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {REPO_ROOT, runCli, spawnCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'
import {isAlive, waitUntil} from '../helpers/processes.js'
import {writeFakeProviderSettings} from '../helpers/wire-formats.js'

/** A task that reads a file, edits it, runs a command and answers, as a model would script it. */
const EDIT_TASK: Script = {
  turns: [
    {
      expect: {
        last_user_contains: 'goodbye',
        system_contains: 'Keep the greeting lowercase',
        tools_include: ['fs_read', 'fs_edit', 'exec'],
      },
      text: 'Let me look.',
      tool_calls: [{arguments: {path: 'greeting.txt'}, name: 'fs_read'}],
    },
    {
      expect: {tool_result_contains: 'hello world'},
      tool_calls: [{arguments: {new_string: 'goodbye', old_string: 'hello', path: 'greeting.txt'}, name: 'fs_edit'}],
    },
    {
      expect: {has_tool_result_for: 'fs_edit'},
      tool_calls: [{arguments: {command: 'cat greeting.txt && echo exit-ok'}, name: 'exec'}],
    },
    {
      chunk_size: 4,
      expect: {tool_result_contains: 'goodbye world'},
      text: '<think>the file says goodbye now</think>Done: greeting.txt now says goodbye world.',
      usage: {input_tokens: 300, output_tokens: 12},
    },
  ],
}

describe('hanzo-dev run', () => {
  const dirs = useSandboxDirs('hanzo-run-', 'project')
  /** Project allow rules apply only once the user trusts the project. */
  const trust = async () =>
    expect(await runCli(['trust', '--yes'], {cwd: dirs.project, env: dirs.box.env})).toMatchObject({exitCode: 0})
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  async function setUp(script: Script) {
    model = await startFakeModel(script)
    writeFileSync(join(dirs.project, 'greeting.txt'), 'hello world\n')
    writeFileSync(join(dirs.project, 'AGENTS.md'), 'Always answer in English.\n')
    writeFileSync(join(dirs.project, 'HANZO.md'), 'Keep the greeting lowercase.\n')
    const env = {...dirs.box.env}
    return (...args: string[]) => runCli(['run', ...args, '--base-url', model!.url], {cwd: dirs.project, env})
  }

  it('completes a multi-tool task in text: the answer on stdout, tool activity on stderr', async () => {
    const run = await setUp(EDIT_TASK)
    const result = await run('change the greeting to goodbye', '--permission-mode', 'allow-all')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Let me look.\nDone: greeting.txt now says goodbye world.')
    // Each result, summed up under its call: the lines an edit changed, a command's exit code and first lines.
    expect(result.stderr).toContain('⏺ fs_read greeting.txt\n  ↳ 1 line\n')
    expect(result.stderr).toContain('⏺ fs_edit greeting.txt\n  ↳ +1 -1 lines\n')
    expect(result.stderr).toContain(
      '⏺ exec cat greeting.txt && echo exit-ok\n  ↳ exit 0\n    goodbye world\n    exit-ok',
    )
    expect(result.stderr).not.toContain('+goodbye world')
    expect(readFileSync(join(dirs.project, 'greeting.txt'), 'utf8')).toBe('goodbye world\n')
    // Each request met the script's expectations (AGENTS.md in the system prompt, each tool result sent back).
    expect(model!.requests).toHaveLength(4)
    const system = (model!.requests[0].body as {messages: Array<{content: string}>}).messages[0].content
    expect(system).toContain('# Project instructions (AGENTS.md)\n\nAlways answer in English.')
    expect(system).toContain('# Project instructions (HANZO.md)\n\nKeep the greeting lowercase.')
    const audit = readFileSync(join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
    expect(audit.map((r) => [r.tool_name, r.decision])).toEqual([
      ['fs_read', 'allow'],
      ['fs_edit', 'allow'],
      ['exec', 'allow'],
    ])
  })

  it('shows more of each result with --verbose: the diff of an edit', async () => {
    const run = await setUp(EDIT_TASK)
    const result = await run('change the greeting to goodbye', '--permission-mode', 'allow-all', '--verbose')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toContain('  ↳ +1 -1 lines\n    @@ -1,1 +1,1 @@\n    -hello world\n    +goodbye world\n')
    expect(result.stderr).toContain('     1    hello world')
  })

  it('reports one JSON object with --output-format json', async () => {
    const run = await setUp(EDIT_TASK)
    const result = await run(
      'change the greeting to goodbye',
      '--output-format',
      'json',
      '--permission-mode',
      'allow-all',
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({
      is_error: false,
      num_turns: 4,
      result: 'Done: greeting.txt now says goodbye world.',
      stop: 'completed',
      type: 'result',
      usage: {output_tokens: expect.any(Number)},
    })
  })

  it('streams one JSON event per line with --output-format stream-json', async () => {
    const run = await setUp(EDIT_TASK)
    const result = await run(
      'change the greeting to goodbye',
      '--output-format',
      'stream-json',
      '--permission-mode',
      'allow-all',
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(events[0]).toMatchObject({
      subtype: 'init',
      tools: expect.arrayContaining(['fs_read', 'exec']),
      type: 'system',
    })
    expect(events.at(-1)).toMatchObject({result: 'Done: greeting.txt now says goodbye world.', type: 'result'})
    const calls = events.filter((e) => e.type === 'tool_call').map((e) => e.name)
    expect(calls).toEqual(['fs_read', 'fs_edit', 'exec'])
    const results = events.filter((e) => e.type === 'tool_result')
    expect(results.map((e) => e.id)).toEqual(events.filter((e) => e.type === 'tool_call').map((e) => e.id))
    expect(results[2].output).toContain('exit-ok')
    expect(
      events
        .filter((e) => e.type === 'text_delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Let me look.Done: greeting.txt now says goodbye world.')
  })

  it('off a terminal, denies what needs approval and tells the model how the user can allow it', async () => {
    const run = await setUp({
      turns: [
        {tool_calls: [{arguments: {command: 'rm -rf build'}, name: 'exec'}]},
        {expect: {tool_result_contains: 'exec(rm -rf build)'}, text: 'I was not allowed to delete build/.'},
      ],
    })
    const result = await run('clean the build')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('I was not allowed to delete build/.')
    expect(result.stderr).toContain('--permission-mode allow-all')
  })

  it('matches path rules against the canonical workspace path', async () => {
    const run = await setUp({
      turns: [
        {
          tool_calls: [
            {arguments: {content: 'a', path: './notes/../notes/a.txt'}, name: 'fs_write'},
            {arguments: {content: 'b', path: 'other/b.txt'}, name: 'fs_write'},
          ],
        },
        {expect: {tool_result_contains: 'Permission denied for fs_write'}, text: 'Wrote one note.'},
      ],
    })
    mkdirSync(join(dirs.project, '.hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.project, '.hanzo', 'settings.local.json'),
      JSON.stringify({permissions: {'fs_write(notes/*)': 'allow'}}),
    )
    await trust()
    const result = await run('take notes')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(readFileSync(join(dirs.project, 'notes', 'a.txt'), 'utf8')).toBe('a')
    expect(existsSync(join(dirs.project, 'other'))).toBe(false)
  })

  it('ends on Ctrl-C: the running command is killed, its call gets a cancelled result, exit 130', async () => {
    // The test reads the shell's pid, which only means something outside a sandbox's pid namespace.
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({sandbox: {mode: 'off'}}),
    )
    model = await startFakeModel({
      turns: [{tool_calls: [{arguments: {command: 'echo $$ > shell.pid; sleep 60'}, name: 'exec'}]}],
    })
    const args = [
      'run',
      'wait a minute',
      '--base-url',
      model.url,
      '--permission-mode',
      'allow-all',
      '--output-format',
      'stream-json',
    ]
    const child = spawnCli(args, {cwd: dirs.project, env: dirs.box.env})
    const pidFile = join(dirs.project, 'shell.pid')
    await waitUntil(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '', 'the command started')
    const shell = Number(readFileSync(pidFile, 'utf8'))
    child.kill('SIGINT')
    const result = await child
    expect(result.exitCode).toBe(130)
    await waitUntil(() => !isAlive(shell), 'the command was killed')
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({
      error: expect.stringContaining('cancelled'),
      is_error: true,
      name: 'exec',
    })
    expect(events.at(-1)).toMatchObject({stop: 'cancelled', type: 'result'})
  })

  it('reads the task from stdin with -', async () => {
    model = await startFakeModel({turns: [{expect: {last_user_contains: 'from a pipe'}, text: 'Got it.'}]})
    const result = await runCli(['run', '-', '--base-url', model.url], {
      cwd: dirs.project,
      env: dirs.box.env,
      input: 'a task from a pipe',
    })
    expect(result).toMatchObject({exitCode: 0, stdout: 'Got it.'})
  })

  it('takes piped stdin as context for the task given as an argument', async () => {
    model = await startFakeModel({
      turns: [{expect: {last_user_contains: 'summarize\n\n<stdin>\nline one\nline two\n</stdin>'}, text: 'Two lines.'}],
    })
    const result = await runCli(['run', 'summarize', '--base-url', model.url], {
      cwd: dirs.project,
      env: dirs.box.env,
      input: 'line one\nline two\n',
    })
    expect(result, result.stderr).toMatchObject({exitCode: 0, stdout: 'Two lines.'})
  })

  it('says a reply cut at the output limit was cut: stop max_tokens, exit 1, how to raise max_output_tokens', async () => {
    const cut = {text: 'The files are: a, b, and', truncated: true}
    const run = await setUp({turns: [cut, cut]})
    const text = await run('list the files')
    expect(text.exitCode).toBe(1)
    expect(text.stdout).toBe('The files are: a, b, and')
    expect(unwrapped(text.stderr)).toContain('max_tokens')
    expect(unwrapped(text.stderr)).toContain('hanzo-dev config set max_output_tokens 16384')
    const json = await run('list the files', '--output-format', 'json')
    expect(json.exitCode).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({
      is_error: true,
      result: 'The files are: a, b, and',
      stop: 'max_tokens',
    })
  })

  it.each([
    ['chat_completions', 'max_tokens'],
    ['responses', 'max_output_tokens'],
    ['anthropic_messages', 'max_tokens'],
  ])('sends the max_output_tokens setting as the output limit of %s requests (%s)', async (api, field) => {
    model = await startFakeModel({turns: [{text: 'ok'}]})
    writeFakeProviderSettings(dirs.box.env.XDG_CONFIG_HOME, {api, url: model.url}, {max_output_tokens: 321})
    const result = await runCli(['run', 'hi'], {cwd: dirs.project, env: dirs.box.env})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(model.requests[0].body).toMatchObject({[field]: 321})
  })

  it('exits 1 with the server’s own message when the model call fails, without retrying a 402', async () => {
    const run = await setUp({
      turns: [{body: {code: 'insufficient_balance', message: 'Insufficient balance: add credits'}, status: 402}],
    })
    const result = await run('anything')
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('Insufficient balance: add credits')
    expect(result.stderr).not.toMatch(/\bat .*\.js:\d+/)
    expect(model!.requests).toHaveLength(1)
  })

  it('retries a 429 twice, then fails with its message', async () => {
    const busy = {body: {message: 'Rate limit reached'}, status: 429}
    const run = await setUp({turns: [busy, busy, busy]})
    const result = await run('anything', '--output-format', 'json')
    expect(result.exitCode).toBe(1)
    expect(JSON.parse(result.stdout)).toMatchObject({
      is_error: true,
      message: expect.stringContaining('Rate limit reached'),
      type: 'error',
    })
    expect(model!.requests).toHaveLength(3)
  })

  it('names an unreachable server and what to try', async () => {
    const result = await runCli(['run', 'hi', '--base-url', 'http://127.0.0.1:9/v1'], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toMatch(/127\.0\.0\.1:9/)
    expect(result.stderr).toMatch(/running/i)
  })

  it('exits 1 when --max-turns ends the run before the task is done', async () => {
    const again = {tool_calls: [{arguments: {path: 'greeting.txt'}, name: 'fs_read'}]}
    const run = await setUp({turns: [again, again]})
    const result = await run('loop', '--max-turns', '2')
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('--max-turns')
  })

  it('asks for a key before sending anything to Hanzo’s API', async () => {
    const result = await runCli(['run', 'hi'], {cwd: dirs.project, env: dirs.box.env})
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('No API key')
    expect(result.stderr).toContain('hanzo-dev auth login')
  })

  it('runs on a scripted model without a server (--fake-model)', async () => {
    const script = join(dirs.box.home, 'script.json')
    writeFileSync(script, JSON.stringify({turns: [{text: 'Scripted hello.'}]}))
    const result = await runCli(['run', 'hi', '--fake-model', script], {cwd: dirs.project, env: dirs.box.env})
    expect(result).toMatchObject({exitCode: 0, stdout: 'Scripted hello.'})
  })

  it("asks a provider found by its login for that provider's default model, not the built-in Anthropic one", async () => {
    model = await startFakeModel({model: 'gpt-5.5', turns: [{text: 'Hi from OpenAI.'}]})
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(
      join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'),
      JSON.stringify({providers: {openai: {base_url: model.url}}}),
    )
    const login = await runCli(['auth', 'login', '--provider', 'openai', '--with-api-key'], {
      env: dirs.box.env,
      input: 'sk-openai-wire-test\n',
    })
    expect(login.exitCode, login.stderr).toBe(0)
    const result = await runCli(['run', 'hi'], {cwd: dirs.project, env: dirs.box.env})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Hi from OpenAI.')
    expect((model.requests[0].body as {model: string}).model).toBe('gpt-5.5')
    // A model a flag (or the settings) names is asked for as named.
    await runCli(['run', 'hi', '--model', 'gpt-5.4-mini'], {cwd: dirs.project, env: dirs.box.env})
    expect((model.requests[1].body as {model: string}).model).toBe('gpt-5.4-mini')
  })

  it('lets the environment win over every file: HANZO_BASE_URL over a provider set in a file, HANZO_PROVIDER over its model', async () => {
    model = await startFakeModel({turns: [{text: 'one'}, {text: 'two'}, {text: 'three'}]})
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    const userFile = join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
    const run = (settings: object, env: Record<string, string>) => {
      writeFileSync(userFile, JSON.stringify(settings))
      return runCli(['run', 'hi'], {cwd: dirs.project, env: {...dirs.box.env, OPENAI_API_KEY: 'sk-env-test', ...env}})
    }

    // Nothing listens at the file's URL: the request reaches the fake model only by HANZO_BASE_URL.
    const fileUrl = 'http://127.0.0.1:9/v1'
    const named = await run(
      {model: 'claude-sonnet-4', provider: 'openai', providers: {openai: {base_url: fileUrl}}},
      {HANZO_BASE_URL: model.url},
    )
    expect(named).toMatchObject({exitCode: 0, stdout: 'one'})
    expect((model.requests[0].body as {model: string}).model).toBe('claude-sonnet-4')

    // A model chosen in a file for another provider gives way to the provider the environment names.
    const switched = await run({model: 'claude-sonnet-4'}, {HANZO_BASE_URL: model.url, HANZO_PROVIDER: 'openai'})
    expect(switched).toMatchObject({exitCode: 0, stdout: 'two'})
    expect((model.requests[1].body as {model: string}).model).toBe('gpt-5.5')

    const both = await run(
      {model: 'claude-sonnet-4'},
      {HANZO_BASE_URL: model.url, HANZO_MODEL: 'gpt-5.4-mini', HANZO_PROVIDER: 'openai'},
    )
    expect(both).toMatchObject({exitCode: 0, stdout: 'three'})
    expect((model.requests[2].body as {model: string}).model).toBe('gpt-5.4-mini')
  })

  it("runs the README's first command: the demo task on the scripted demo model", async () => {
    const result = await runCli(['run', 'what is in this repository?', '--fake-model', 'examples/demo/model.json'], {
      cwd: REPO_ROOT,
      env: dirs.box.env,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain('This is hanzo-dev')
    expect(result.stderr).toContain('⏺ fs_read README.md')
  })

  it('calls a tool contributed by a linked third-party plugin (which asks permission)', async () => {
    const link = await runCli(['plugins', 'link', '--no-install', join(REPO_ROOT, 'examples', 'plugin-hello')], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    expect(link.exitCode, link.stderr).toBe(0)
    const run = await setUp({
      turns: [
        {expect: {tools_include: ['hello_greet']}, tool_calls: [{arguments: {name: 'Ada'}, name: 'hello_greet'}]},
        {expect: {tool_result_contains: 'Hello, Ada!'}, text: 'It said: Hello, Ada!'},
      ],
    })
    writeFileSync(join(dirs.project, 'AGENTS.md'), '')
    // A plugin's read-only claim is not believed: allow-reads does not cover it...
    const denied = await run('greet Ada', '--permission-mode', 'allow-reads', '--output-format', 'stream-json')
    expect(denied.stdout).toContain('Permission denied for hello_greet')
    // ...an explicit rule does.
    await model!.close()
    const allowed = await setUp({
      turns: [
        {tool_calls: [{arguments: {name: 'Ada'}, name: 'hello_greet'}]},
        {expect: {tool_result_contains: 'Hello, Ada!'}, text: 'It said: Hello, Ada!'},
      ],
    })
    const settings = join(dirs.project, '.hanzo')
    mkdirSync(settings, {recursive: true})
    writeFileSync(join(settings, 'settings.local.json'), JSON.stringify({permissions: {hello_greet: 'allow'}}))
    await trust()
    const result = await allowed('greet Ada')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('It said: Hello, Ada!')
  })
})
