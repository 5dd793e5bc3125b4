import {execFileSync} from 'node:child_process'
import {existsSync, linkSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, spawnCli, useSandboxDirs} from '../helpers/cli.js'
import {waitUntil} from '../helpers/processes.js'

/** CPU time a process has used, in clock ticks (/proc/<pid>/stat: utime and stime). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

/**
 * A hostile model's input that used to crash or hang the run: each run must end with an error
 * result for that call, the run itself going on (or ending on Ctrl-C).
 */
describe('hanzo-dev run: input that would crash or hang the run', () => {
  const dirs = useSandboxDirs('hanzo-hostile-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const catastrophic = (): Script => {
    execFileSync('git', ['init', '-q'], {cwd: dirs.project})
    writeFileSync(join(dirs.project, 'long.txt'), `${'a'.repeat(50_000)}\n`)
    return {
      turns: [
        {tool_calls: [{arguments: {pattern: '(?=a)(a+)+b'}, name: 'fs_grep'}]},
        {expect: {tool_result_contains: 'so the search was stopped'}, text: 'The pattern was too slow.'},
      ],
    }
  }

  it('ends an fs_grep whose pattern backtracks catastrophically with an error result, and the run goes on', async () => {
    model = await startFakeModel(catastrophic())
    const result = await runCli(['run', 'search', '--base-url', model.url, '--output-format', 'stream-json'], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    const events = result.stdout.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({
      error: expect.stringContaining('/(?=a)(a+)+b/ used up its 10 s of matching (it was on long.txt)'),
      is_error: true,
      name: 'fs_grep',
    })
    expect(events.at(-1)).toMatchObject({result: 'The pattern was too slow.', stop: 'completed'})
  })

  it('sends tool arguments nested 20,000 levels deep back as an error, in every output format', async () => {
    execFileSync('git', ['init', '-q'], {cwd: dirs.project})
    const deep = `{"path": "a.txt", "x": ${'{"a": '.repeat(20_000)}1${'}'.repeat(20_000)}}`
    for (const format of ['text', 'json', 'stream-json']) {
      model = await startFakeModel({
        turns: [
          {tool_calls: [{arguments: deep, name: 'fs_read'}]},
          {expect: {tool_result_contains: 'nested more than 64 levels deep'}, text: 'Sent them flat.'},
        ],
      })
      const result = await runCli(['run', 'read', '--base-url', model.url, '--output-format', format], {
        cwd: dirs.project,
        env: dirs.box.env,
      })
      expect(result.exitCode, `${format}: ${result.stderr}`).toBe(0)
      expect(result.stdout).toContain('Sent them flat.')
      expect(result.stderr).not.toContain('RangeError')
      await model.close()
      model = undefined
    }
  })

  it('ends on Ctrl-C while the pattern is matching: a cancelled result, exit 130', async () => {
    model = await startFakeModel(catastrophic())
    const child = spawnCli(['run', 'search', '--base-url', model.url, '--output-format', 'stream-json'], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    let stdout = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    await waitUntil(() => stdout.includes('"type":"tool_call"'), 'the model called fs_grep')
    // Busy for half a second of CPU after the call: the pattern is being matched.
    const before = cpuTicks(child.pid!)
    await waitUntil(() => cpuTicks(child.pid!) - before > 50, 'the pattern is being matched')
    child.kill('SIGINT')
    const result = await child
    expect(result.exitCode).toBe(130)
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({
      error: expect.stringContaining('cancelled'),
      is_error: true,
      name: 'fs_grep',
    })
    expect(events.at(-1)).toMatchObject({stop: 'cancelled', type: 'result'})
  })
})

describe('hanzo-dev run: a decision the audit log cannot keep', () => {
  const dirs = useSandboxDirs('hanzo-audit-e2e-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  it('denies the call, allowed or not, with the reason, and runs nothing', async () => {
    execFileSync('git', ['init', '-q'], {cwd: dirs.project})
    writeFileSync(join(dirs.project, 'notes.txt'), 'private notes\n')
    // A directory where the log file goes: the append fails, for root too.
    const log = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev', 'audit.jsonl')
    mkdirSync(log, {recursive: true})
    model = await startFakeModel({
      turns: [
        {tool_calls: [{arguments: {path: 'notes.txt'}, name: 'fs_read'}]},
        {
          expect: {tool_result_contains: 'Permission denied for fs_read'},
          tool_calls: [{arguments: {command: 'touch ran.txt'}, name: 'exec'}],
        },
        {expect: {tool_result_contains: 'Permission denied for exec'}, text: 'Nothing ran.'},
      ],
    })
    const args = [
      'run',
      'read and run',
      '--base-url',
      model.url,
      '--permission-mode',
      'allow-all',
      '--output-format',
      'stream-json',
    ]
    const result = await runCli(args, {cwd: dirs.project, env: dirs.box.env})
    expect(result.exitCode, result.stderr).toBe(0)
    const results = result.stdout
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((e) => e.type === 'tool_result')
    const reason = `cannot write the audit log ${log} (EISDIR): make it a writable file, or set XDG_DATA_HOME to a writable directory; a decision that is not in the audit log is a deny`
    expect(results).toMatchObject([
      {error: `Permission denied for fs_read: ${reason}`, is_error: true, output: ''},
      {error: `Permission denied for exec: ${reason}`, is_error: true},
    ])
    expect(result.stdout).not.toContain('private notes')
    expect(existsSync(join(dirs.project, 'ran.txt'))).toBe(false)
  })
})

describe('hanzo-dev run: fs_read of a hard link to a file outside the workspace', () => {
  const dirs = useSandboxDirs('hanzo-hardlink-', 'project', 'outside')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  it.each(['prompt', 'allow-reads', 'deny', 'allow-all'])(
    'is refused in permission mode %s, and the content never reaches the model',
    async (mode) => {
      execFileSync('git', ['init', '-q'], {cwd: dirs.project})
      writeFileSync(join(dirs.outside, 'id_ed25519'), 'TOP SECRET KEY\n')
      linkSync(join(dirs.outside, 'id_ed25519'), join(dirs.project, 'notes.txt'))
      model = await startFakeModel({
        turns: [
          {tool_calls: [{arguments: {path: 'notes.txt'}, name: 'fs_read'}]},
          {
            expect: {tool_result_contains: 'notes.txt has 2 hard links'},
            tool_calls: [{arguments: {pattern: 'SECRET'}, name: 'fs_grep'}],
          },
          {expect: {tool_result_contains: 'No matches for /SECRET/'}, text: 'Refused.'},
        ],
      })
      const result = await runCli(
        ['run', 'read the notes', '--base-url', model.url, '--permission-mode', mode, '--output-format', 'stream-json'],
        {cwd: dirs.project, env: dirs.box.env},
      )
      expect(result.exitCode, result.stderr).toBe(0)
      const results = result.stdout
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((e) => e.type === 'tool_result')
      expect(results).toMatchObject([
        {is_error: true, name: 'fs_read'},
        {is_error: false, name: 'fs_grep'},
      ])
      expect(JSON.stringify(model.requests)).not.toContain('TOP SECRET')
    },
  )
})
