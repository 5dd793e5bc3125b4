import {mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, REPO_ROOT, runCli, type Sandbox} from '../helpers/cli.js'

const FIXTURE = join(REPO_ROOT, 'test', 'fixtures', 'plugins', 'session-caller')

/**
 * A plugin command reaches the agent session through the host library (`loadHostLibrary(this.config)`),
 * as the agents plugin does: the built CLI runs a linked plugin's command, which opens a
 * read-only session and a child of it on the scripted model.
 */
describe('a plugin command on openAgentSession (built CLI)', () => {
  let box: Sandbox
  let project: string
  let run: Awaited<ReturnType<typeof runCli>>

  beforeAll(async () => {
    box = makeSandbox('hanzo-plugin-session-')
    project = join(box.home, 'project')
    mkdirSync(join(project, '.git'), {recursive: true})
    writeFileSync(join(project, 'notes.txt'), 'the notes say hello\n')
    const dataDir = join(box.env.XDG_DATA_HOME, 'hanzo-dev')
    mkdirSync(dataDir, {recursive: true})
    const plugins = [{name: 'hanzo-fixture-session-caller', root: FIXTURE, type: 'link'}]
    writeFileSync(
      join(dataDir, 'package.json'),
      JSON.stringify({name: 'hanzo-dev', oclif: {plugins, schema: 1}, private: true}),
    )
    const script = join(box.home, 'model.json')
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          {
            expect: {system_contains: 'You are a probe.', tools_include: ['fs_read']},
            tool_calls: [{arguments: {path: 'notes.txt'}, name: 'fs_read'}],
          },
          {expect: {tool_result_contains: 'the notes say hello'}, text: 'They say hello.'},
          {expect: {last_user_contains: 'summarize'}, tool_calls: [{arguments: {path: 'notes.txt'}, name: 'fs_read'}]},
          {expect: {tool_result_contains: 'not one of this session'}, text: 'A greeting.'},
        ],
      }),
    )
    run = await runCli(['session-probe', '--fake-model', script], {cwd: project, env: box.env})
  })
  afterAll(() => box.cleanup())

  it('runs the session and its child with the scopes it asked for', () => {
    expect(run.exitCode, run.stderr).toBe(0)
    const report = JSON.parse(run.stdout)
    expect(report.answers).toEqual(['They say hello.', 'A greeting.'])
    expect(report.tools).toContain('fs_read')
    expect(report.tools).not.toContain('fs_write')
  })

  it('records both runs, with their labels, in one saved session', () => {
    const {id} = JSON.parse(run.stdout)
    const dir = join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'sessions')
    const [projectDir] = readdirSync(dir)
    const lines = readFileSync(join(dir, projectDir, `${id}.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines[0]).toMatchObject({id, label: 'read', type: 'session'})
    expect(lines.filter((line) => line.type === 'run')).toEqual([
      expect.objectContaining({label: 'summary', new_conversation: true}),
    ])
  })
})
