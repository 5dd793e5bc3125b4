import {execFileSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
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
        {tool_calls: [{arguments: {pattern: '(a+)+b'}, name: 'fs_grep'}]},
        {expect: {tool_result_contains: 'so the search was stopped'}, text: 'The pattern was too slow.'},
      ],
    }
  }

  it('ends an fs_grep whose pattern backtracks catastrophically with an error result, and the run goes on', async () => {
    model = await startFakeModel(catastrophic())
    const result = await runCli(['run', 'search', '--base-url', model.url, '--output-format', 'stream-json'], {cwd: dirs.project, env: dirs.box.env})
    expect(result.exitCode, result.stderr).toBe(0)
    const events = result.stdout.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({error: expect.stringContaining('/(a+)+b/ used up its 10 s of matching (it was on long.txt)'), is_error: true, name: 'fs_grep'})
    expect(events.at(-1)).toMatchObject({result: 'The pattern was too slow.', stop: 'completed'})
  })

  it('ends on Ctrl-C while the pattern is matching: a cancelled result, exit 130', async () => {
    model = await startFakeModel(catastrophic())
    const child = spawnCli(['run', 'search', '--base-url', model.url, '--output-format', 'stream-json'], {cwd: dirs.project, env: dirs.box.env})
    let stdout = ''
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    await waitUntil(() => stdout.includes('"type":"tool_call"'), 'the model called fs_grep')
    // Busy for half a second of CPU after the call: the pattern is being matched.
    const before = cpuTicks(child.pid!)
    await waitUntil(() => cpuTicks(child.pid!) - before > 50, 'the pattern is being matched')
    child.kill('SIGINT')
    const result = await child
    expect(result.exitCode).toBe(130)
    const events = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({error: expect.stringContaining('cancelled'), is_error: true, name: 'fs_grep'})
    expect(events.at(-1)).toMatchObject({stop: 'cancelled', type: 'result'})
  })
})
