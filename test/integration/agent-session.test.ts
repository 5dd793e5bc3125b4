import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {Config} from '@oclif/core'
import type {AgentSession, Prompter} from '@hanzo-dev/sdk'
import {afterEach, beforeAll, describe, expect, it} from 'vitest'

import {openAgentSession, type OpenAgentSessionOptions} from '../../src/adapters/agent-session/index.js'
import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {REPO_ROOT, runCli, useSandboxDirs} from '../helpers/cli.js'

// The session API in-process, on the real tools, permission gate, audit log, hooks plugin and
// saved sessions; the model is the scripted server. `hanzo-dev run` itself is covered by the
// e2e suites, on this same API.

interface ChatBody {
  tools?: Array<{function: {name: string}}>
  messages: Array<{role: string; content: unknown}>
}

describe('openAgentSession', () => {
  const dirs = useSandboxDirs('hanzo-agent-session-', 'project')
  let cliConfig: Config
  let model: FakeModel | undefined
  const sessions: AgentSession[] = []
  const warnings: string[] = []

  beforeAll(async () => {
    cliConfig = await Config.load(REPO_ROOT)
  })
  afterEach(async () => {
    for (const session of sessions.splice(0)) await session.close()
    await model?.close()
    model = undefined
    warnings.length = 0
  })

  async function open(script: Script, options: Partial<OpenAgentSessionOptions> = {}): Promise<AgentSession> {
    mkdirSync(join(dirs.project, '.git'), {recursive: true})
    model = await startFakeModel(script)
    const session = await openAgentSession({
      baseURL: model.url,
      cliConfig,
      cwd: dirs.project,
      env: dirs.box.env,
      permissionMode: 'prompt',
      prompter: {requestPermission: async () => ({reason: 'no one asked', type: 'deny'})},
      warn: (message) => void warnings.push(message),
      ...options,
    })
    sessions.push(session)
    return session
  }

  const bodies = () => model!.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatBody)
  const offered = (body: ChatBody) => (body.tools ?? []).map((t) => t.function.name)
  const audit = () =>
    readFileSync(join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'audit.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
  const userSettings = (settings: unknown) => {
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), JSON.stringify(settings))
  }

  /** A prompter that answers every question with `answer` and remembers what it was asked. */
  function askingPrompter(answer: 'once' | 'session'): Prompter & {asked: string[]} {
    const asked: string[] = []
    return {
      asked,
      requestPermission: async (tool, input) => (
        asked.push(`${tool} ${JSON.stringify(input)}`),
        {scope: answer, type: 'allow'}
      ),
    }
  }

  describe('tool scoping', () => {
    it('read-only: offers only the tools that change nothing, and refuses a write the model asks for anyway, in the audit log', async () => {
      const session = await open(
        {
          turns: [
            {tool_calls: [{arguments: {content: 'x', path: 'new.txt'}, name: 'fs_write'}]},
            {expect: {tool_result_contains: 'Refused'}, text: 'I could not write.'},
          ],
        },
        {permissionMode: 'allow-all', tools: 'read-only'},
      )
      expect(session.tools).toEqual(expect.arrayContaining(['fs_read', 'fs_list']))
      for (const writer of ['fs_write', 'fs_edit', 'exec']) expect(session.tools).not.toContain(writer)
      const events: string[] = []
      const result = await session.run('write new.txt', {
        onEvent: (event) => event.type === 'tool_result' && events.push(event.result.error ?? ''),
      })
      expect(result).toMatchObject({finalOutput: 'I could not write.', stop: 'completed'})
      expect(events[0]).toMatch(/^Refused: fs_write is not one of this session's tools/)
      expect(existsSync(join(dirs.project, 'new.txt'))).toBe(false)
      expect(offered(bodies()[0]).sort()).toEqual([...session.tools].sort())
      expect(audit()).toContainEqual(
        expect.objectContaining({
          decision: 'deny',
          reason: expect.stringContaining("fs_write is not one of this session's tools"),
          session_id: session.id,
          tool_name: 'fs_write',
        }),
      )
    })

    it('none: offers no tool and runs none, even when the model asks', async () => {
      const session = await open(
        {turns: [{tool_calls: [{arguments: {command: 'touch ran.txt'}, name: 'exec'}]}, {text: '1. Do it.'}]},
        {permissionMode: 'allow-all', tools: 'none'},
      )
      expect(session.tools).toEqual([])
      const result = await session.run('plan it')
      expect(result.finalOutput).toBe('1. Do it.')
      expect(offered(bodies()[0])).toEqual([])
      expect(existsSync(join(dirs.project, 'ran.txt'))).toBe(false)
      expect(JSON.stringify(result.history)).toContain("exec is not one of this session's tools (it has none)")
    })

    it('a list: those tools, and a warning for a name no tool has', async () => {
      const session = await open({turns: [{text: 'ok'}]}, {tools: ['fs_read', 'fs.glob', 'no_such_tool']})
      expect(session.tools).toEqual(['fs_read', 'fs_glob'])
      expect(warnings).toContainEqual(
        expect.stringMatching(/tool "no_such_tool" is not offered: no tool has that name/),
      )
    })

    it('a child is never offered more than its parent', async () => {
      const session = await open({turns: [{text: 'ok'}]}, {tools: 'read-only'})
      expect(session.child({tools: 'all'}).tools).toEqual(session.tools)
      // `exec` is the group (exec, exec_output, exec_kill): of it, only the read-only exec_output is the parent's.
      expect(session.child({tools: ['fs_read', 'exec']}).tools).toEqual(['fs_read', 'exec_output'])
    })
  })

  describe('a child session', () => {
    it('shares the session approvals: "allow for this session" given in the parent covers the child; its history is its own', async () => {
      const prompter = askingPrompter('session')
      const session = await open(
        {
          turns: [
            {tool_calls: [{arguments: {command: 'echo parent'}, name: 'exec'}]},
            {text: 'parent done'},
            {
              expect: {last_user_contains: 'child task'},
              tool_calls: [{arguments: {command: 'echo parent'}, name: 'exec'}],
            },
            {expect: {tool_result_contains: 'parent'}, text: 'child done'},
          ],
        },
        {prompter},
      )
      expect((await session.run('parent task')).finalOutput).toBe('parent done')
      const child = session.child({systemPrompt: 'You review code.'})
      expect(child.id).toBe(session.id)
      expect((await child.run('child task')).finalOutput).toBe('child done')
      expect(prompter.asked).toEqual(['exec {"command":"echo parent"}'])
      expect(audit().at(-1)).toMatchObject({
        decision: 'allow',
        reason: 'approved earlier in this session',
        tool_name: 'exec',
      })
      // The child's first request: its own system prompt (the role first) and its task, nothing of the parent's conversation.
      const first = bodies()[2].messages
      expect(first.map((m) => m.role)).toEqual(['system', 'user'])
      expect(String(first[0].content)).toMatch(/^You review code\.\n\nYou are hanzo-dev/)
      expect(JSON.stringify(first)).not.toContain('parent task')
    })

    it('applies the deny rules and the pre-hooks of the settings, as its parent does', async () => {
      const hookLog = join(dirs.box.home, 'hook.log')
      userSettings({
        hooks: [
          {
            command: `cat >> '${hookLog}'; echo >> '${hookLog}'; echo "hook says no" >&2; exit 2`,
            event: 'pre_tool_use',
            tool_pattern: 'fs_write',
          },
        ],
        permissions: {'exec(touch *)': 'deny'},
      })
      const session = await open(
        {
          turns: [
            {
              tool_calls: [
                {arguments: {command: 'touch denied.txt'}, name: 'exec'},
                {arguments: {content: 'x', path: 'hooked.txt'}, name: 'fs_write'},
              ],
            },
            {expect: {tool_result_contains: 'hook says no'}, text: 'both refused'},
          ],
        },
        {permissionMode: 'allow-all'},
      )
      const result = await session.child({label: 'code'}).run('make files')
      expect(result.finalOutput).toBe('both refused')
      expect(existsSync(join(dirs.project, 'denied.txt'))).toBe(false)
      expect(existsSync(join(dirs.project, 'hooked.txt'))).toBe(false)
      expect(JSON.stringify(result.history)).toMatch(/Permission denied for exec: .*exec\(touch \*\)/)
      expect(readFileSync(hookLog, 'utf8')).toContain('hooked.txt')
    })
  })

  describe('recording', () => {
    it('records child runs with their label into the same session; run --continue carries on the last run', async () => {
      const session = await open({turns: [{text: 'the plan'}, {text: 'the review'}]}, {permissionMode: 'allow-all'})
      await session.run('make a plan', {label: 'plan'})
      await session.child().run('review the work', {label: 'review'})
      await session.close()
      const dir = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions')
      const [project] = readdirSync(dir)
      const lines = readFileSync(join(dir, project, `${session.id}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line))
      expect(lines.map((line) => line.type)).toEqual([
        'session',
        'user',
        'usage',
        'assistant',
        'end',
        'run',
        'user',
        'usage',
        'assistant',
        'end',
      ])
      expect(lines[0]).toMatchObject({id: session.id, label: 'plan'})
      expect(lines[5]).toMatchObject({label: 'review', new_conversation: true})
      const show = await runCli(['sessions', 'show', session.id], {cwd: dirs.project, env: dirs.box.env})
      expect(show.stdout).toContain('── run 1 · plan\n')
      expect(show.stdout).toMatch(/── run 2 · review · .* · a new conversation\n/)

      const next = await startFakeModel({turns: [{expect: {last_user_contains: 'go on'}, text: 'carried on'}]})
      try {
        const cli = await runCli(['run', '--continue', 'go on', '--base-url', next.url, '--output-format', 'json'], {
          cwd: dirs.project,
          env: dirs.box.env,
        })
        expect(cli.exitCode, cli.stderr).toBe(0)
        expect(JSON.parse(cli.stdout)).toMatchObject({result: 'carried on', session_id: session.id})
        const sent = JSON.stringify((next.requests[0].body as ChatBody).messages)
        expect(sent).toContain('review the work')
        expect(sent).toContain('the review')
        expect(sent).not.toContain('make a plan')
      } finally {
        await next.close()
      }
    })

    it('carries the conversation on from run to run of one session, and saves nothing with record: false', async () => {
      const session = await open(
        {turns: [{text: 'one'}, {expect: {last_user_contains: 'second'}, text: 'two'}]},
        {session: {record: false}},
      )
      await session.run('first')
      const second = await session.run('second')
      expect(second.history.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant'])
      expect(second.usageReport.session.input_tokens).toBeGreaterThan(second.usageReport.run.input_tokens)
      expect(existsSync(join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions'))).toBe(false)
    })
  })

  describe('side questions and compaction', () => {
    it('a child with record: false writes nothing to the saved session: the transcript stays the conversation', async () => {
      const session = await open({turns: [{text: 'hello'}, {text: 'feat: a message'}]})
      await session.run('hi')
      const side = session.child({record: false, tools: 'none'})
      expect((await side.run('write a commit message')).finalOutput).toBe('feat: a message')
      await session.close()
      const dir = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions')
      const [project] = readdirSync(dir)
      const text = readFileSync(join(dir, project, `${session.id}.jsonl`), 'utf8')
      expect(text).toContain('hello')
      expect(text).not.toContain('commit message')
    })

    it('compact() summarizes the middle on demand (with the focus), keeps the last turns, and the next run carries on from the summary', async () => {
      const session = await open({
        turns: [
          {text: 'a1'},
          {text: 'a2'},
          {text: 'a3'},
          {expect: {system_contains: 'focus on: the API names'}, text: 'the summary'},
          {expect: {last_user_contains: 'q4'}, text: 'a4'},
        ],
      })
      expect(await session.compact()).toEqual({compactedCount: 0, strategy: 'none', tokensSaved: 0})
      for (const prompt of ['q1', 'q2', 'q3']) await session.run(prompt)
      const result = await session.compact({focus: 'the API names'})
      expect(result).toMatchObject({compactedCount: 2, strategy: 'summary'})
      await session.run('q4')
      const sent = bodies()
        .at(-1)!
        .messages.map((m) => String(m.content))
      expect(sent.slice(1)).toEqual(['[Summary of earlier conversation]\nthe summary', 'q2', 'a2', 'q3', 'a3', 'q4'])
    })
  })

  describe('close', () => {
    it('is idempotent, and a closed session runs nothing', async () => {
      const session = await open({turns: [{text: 'ok'}]})
      await session.close()
      await session.close()
      await expect(session.run('again')).rejects.toThrow(/closed/)
    })
  })
})
