import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {type ToolExecutorFn, toolOk} from '@hanzo-dev/sdk'
import {describe, expect, it, vi} from 'vitest'

import {useSandboxDirs} from '../../../test/helpers/cli.js'
import {context, hook, makeRunner, processGone, script, waitForFile} from './hook-fixtures.js'

// Every hook here is a real shell script run by /bin/sh in a temp project.
const dirs = useSandboxDirs('hanzo-hooks-run-', 'project', 'work', 'out')

const call = {input: {command: 'ls'}, name: 'exec'}
const ran = () => toolOk('tool ran')

function pipeline(runner: ReturnType<typeof makeRunner>['runner'], next = vi.fn<ToolExecutorFn>(async () => ran())) {
  return {execute: runner.middleware().wrap(next), next}
}

describe('HookRunner pre_tool_use', () => {
  it('lets the call run when the hook exits 0', async () => {
    const {logged, runner} = makeRunner(dirs.project, [
      hook({command: script(dirs.project, 'ok.sh', 'exit 0'), event: 'pre_tool_use'}),
    ])
    const {execute, next} = pipeline(runner)
    expect(await execute(call, context(dirs.work))).toEqual(toolOk('tool ran'))
    expect(next).toHaveBeenCalledOnce()
    expect(logged).toEqual([])
  })

  it('denies with the hook stderr as the reason on exit 2, without running the tool', async () => {
    const deny = script(dirs.project, 'deny.sh', 'echo "no shell commands on Fridays" >&2\nexit 2')
    const {logged, runner} = makeRunner(dirs.project, [hook({command: deny, event: 'pre_tool_use'})])
    const {execute, next} = pipeline(runner)
    const result = await execute(call, context(dirs.work))
    expect(result).toMatchObject({is_error: true, output: ''})
    expect(result.error).toBe('Hook hooks[0] pre_tool_use denied this exec call: no shell commands on Fridays')
    expect(next).not.toHaveBeenCalled()
    expect(logged).toEqual([])
  })

  it('denies when the hook crashes (fail closed) and logs it; fail_open lets the call run, still logged', async () => {
    const crash = script(dirs.project, 'crash.sh', 'echo "jq: not found" >&2\nexit 1')
    const closed = makeRunner(dirs.project, [hook({command: crash, event: 'pre_tool_use'})])
    const a = pipeline(closed.runner)
    const result = await a.execute(call, context(dirs.work))
    expect(result.error).toBe(
      'Hook hooks[0] pre_tool_use failed (exited with code 1 (jq: not found)), so this exec call was not run.',
    )
    expect(a.next).not.toHaveBeenCalled()
    expect(closed.logged).toEqual([
      'hooks[0] pre_tool_use exited with code 1 (jq: not found); the tool call is denied (fail closed)',
    ])

    const open = makeRunner(dirs.project, [hook({command: crash, event: 'pre_tool_use', fail_open: true})])
    const b = pipeline(open.runner)
    expect(await b.execute(call, context(dirs.work))).toEqual(toolOk('tool ran'))
    expect(open.logged).toEqual([
      'hooks[0] pre_tool_use exited with code 1 (jq: not found); fail_open is set, so this is let through',
    ])
  })

  it('runs matching hooks in settings order and stops at the first deny', async () => {
    const second = join(dirs.out, 'second-ran')
    const {runner} = makeRunner(dirs.project, [
      hook({command: script(dirs.project, 'a.sh', 'exit 0'), event: 'pre_tool_use'}),
      hook({
        command: script(dirs.project, 'b.sh', 'echo first >&2; exit 2'),
        event: 'pre_tool_use',
        tool_pattern: 'ex*',
      }),
      hook({
        command: script(dirs.project, 'c.sh', `touch '${second}'; echo second >&2; exit 2`),
        event: 'pre_tool_use',
      }),
    ])
    expect(await runner.runPre('exec', {}, context(dirs.work))).toEqual({
      decision: 'deny',
      reason: 'Hook hooks[1] pre_tool_use denied this exec call: first',
    })
    expect(existsSync(second)).toBe(false)
  })

  it('matches tool_pattern as a glob, dot and underscore spelling the same tool', async () => {
    const mark = join(dirs.out, 'ran')
    const touch = script(dirs.project, 'touch.sh', `echo "$HANZO_TOOL_NAME" >> '${mark}'`)
    const {runner} = makeRunner(dirs.project, [
      hook({command: touch, event: 'pre_tool_use', tool_pattern: 'fs.*'}),
      hook({command: touch, event: 'pre_tool_use', tool_pattern: 'mcp__github__*'}),
    ])
    for (const name of ['fs_write', 'exec', 'mcp__github__create_issue', 'mcp__slack__post'])
      await runner.runPre(name, {}, context(dirs.work))
    expect(readFileSync(mark, 'utf8')).toBe('fs_write\nmcp__github__create_issue\n')
  })

  it('gives the hook the call in HANZO_* variables and as JSON on stdin, never in the command line', async () => {
    const hostile = {command: 'echo $(touch pwned) `touch pwned2`; touch pwned3', path: 'it\'s "quoted"\n'}
    const capture = script(
      dirs.project,
      'capture.sh',
      [
        `cd '${dirs.out}'`,
        'printf %s "$HANZO_TOOL_NAME" > name',
        'printf %s "$HANZO_TOOL_INPUT" > input',
        'printf %s "$HANZO_SESSION_ID" > session',
        'printf %s "$HANZO_HOOK_EVENT" > event',
        'printf %s "${HANZO_TOOL_OUTPUT-unset}" > output',
        'cat > stdin.json',
        `printf %s "$OLDPWD" > cwd`,
      ].join('\n'),
    )
    const {runner} = makeRunner(dirs.project, [hook({command: capture, event: 'pre_tool_use'})], {
      HANZO_TOOL_OUTPUT: 'from an enclosing hook',
    })
    expect(await runner.runPre('exec', hostile, context(dirs.work))).toEqual({decision: 'allow'})

    const read = (name: string) => readFileSync(join(dirs.out, name), 'utf8')
    expect(read('name')).toBe('exec')
    expect(JSON.parse(read('input'))).toEqual(hostile)
    expect(read('session')).toBe('session-1')
    expect(read('event')).toBe('pre_tool_use')
    expect(read('output')).toBe('unset')
    // The hook runs in the project root; the agent's working directory is in the JSON.
    expect(read('cwd')).toBe(dirs.project)
    expect(JSON.parse(read('stdin.json'))).toEqual({
      cwd: dirs.work,
      event: 'pre_tool_use',
      session_id: 'session-1',
      tool_input: hostile,
      tool_name: 'exec',
    })
    for (const dir of [dirs.project, dirs.work, dirs.out])
      expect(readdirSync(dir).filter((f) => f.startsWith('pwned'))).toEqual([])
  })

  it('cuts a tool input too large for a variable, says so, and still gives it whole on stdin', async () => {
    const big = {content: 'é'.repeat(100_000), path: 'a.txt'}
    const capture = script(
      dirs.project,
      'big.sh',
      `printf %s "$HANZO_TOOL_INPUT" > '${dirs.out}/input'\necho "$HANZO_TOOL_INPUT_TRUNCATED" > '${dirs.out}/flag'\ncat > '${dirs.out}/stdin.json'`,
    )
    const {runner} = makeRunner(dirs.project, [hook({command: capture, event: 'pre_tool_use'})])
    expect(await runner.runPre('fs_write', big, context(dirs.work))).toEqual({decision: 'allow'})
    const env = readFileSync(join(dirs.out, 'input'))
    expect(env.length).toBeLessThanOrEqual(64 * 1024)
    expect(env.toString('utf8')).not.toContain('\uFFFD')
    expect(readFileSync(join(dirs.out, 'flag'), 'utf8')).toBe('1\n')
    expect(JSON.parse(readFileSync(join(dirs.out, 'stdin.json'), 'utf8')).tool_input).toEqual(big)
  })
})

describe('HookRunner process handling', () => {
  it('kills the whole process group on timeout: a backgrounded grandchild does not survive or hold the agent', async () => {
    const pidFile = join(dirs.out, 'grandchild.pid')
    const slow = script(dirs.project, 'slow.sh', `sleep 999 &\necho $! > '${pidFile}'\nsleep 999`)
    const {logged, runner} = makeRunner(dirs.project, [hook({command: slow, event: 'pre_tool_use', timeout_ms: 300})])
    const decision = await runner.runPre('exec', {}, context(dirs.work))
    expect(decision).toEqual({decision: 'deny', reason: expect.stringContaining('timed out after 300 ms')})
    expect(logged[0]).toMatch(/timed out after 300 ms and was killed with its child processes; the tool call is denied/)
    expect(await processGone(Number(await waitForFile(pidFile)))).toBe(true)
  })

  it('returns when the hook exits even though a backgrounded child holds its stdout, and kills that child', async () => {
    const pidFile = join(dirs.out, 'child.pid')
    const leaves = script(dirs.project, 'leaves.sh', `sleep 999 &\necho $! > '${pidFile}'\nexit 0`)
    const {runner} = makeRunner(dirs.project, [hook({command: leaves, event: 'pre_tool_use', timeout_ms: 600_000})])
    expect(await runner.runPre('exec', {}, context(dirs.work))).toEqual({decision: 'allow'})
    expect(await processGone(Number(await waitForFile(pidFile)))).toBe(true)
  })

  it('stops the hook when the turn is cancelled', async () => {
    const pidFile = join(dirs.out, 'hook.pid')
    const slow = script(dirs.project, 'slow.sh', `echo $$ > '${pidFile}'\nsleep 999`)
    const {runner} = makeRunner(dirs.project, [hook({command: slow, event: 'pre_tool_use', timeout_ms: 600_000})])
    const controller = new AbortController()
    const pending = runner.runPre('exec', {}, context(dirs.work, controller.signal))
    const pid = Number(await waitForFile(pidFile))
    controller.abort()
    expect(await pending).toEqual({
      decision: 'deny',
      reason: expect.stringContaining('was stopped because the turn was cancelled'),
    })
    expect(await processGone(pid)).toBe(true)
  })

  it('caps huge output: the reason is cut, nothing runs out of memory', async () => {
    const flood = script(
      dirs.project,
      'flood.sh',
      "head -c 20000000 /dev/zero | tr '\\0' x\nhead -c 20000000 /dev/zero | tr '\\0' y >&2\nexit 2",
    )
    const {runner} = makeRunner(dirs.project, [hook({command: flood, event: 'pre_tool_use'})])
    const outcomes = await runner.run('pre_tool_use', {...context(dirs.work), toolName: 'exec'})
    expect(outcomes[0]).toMatchObject({exitCode: 2, verdict: 'deny'})
    expect(outcomes[0].reason).toMatch(/^y{2000}… \(cut\)$/)
  })

  it('sanitizes stderr that is not UTF-8 or carries terminal escapes', async () => {
    const raw = script(
      dirs.project,
      'raw.sh',
      "printf '\\377\\376 bad \\033[31mred\\033[0m\\001 \\033]0;title\\007bytes\\r\\n' >&2\nexit 2",
    )
    const {runner} = makeRunner(dirs.project, [hook({command: raw, event: 'pre_tool_use'})])
    const [outcome] = await runner.run('pre_tool_use', {...context(dirs.work), toolName: 'exec'})
    expect(outcome.reason).toBe('\uFFFD\uFFFD bad red bytes')
  })

  it('denies when the hook cannot start at all, and when its command reached the plugin redacted', async () => {
    const {logged, runner} = makeRunner(join(dirs.project, 'missing'), [hook({command: 'true', event: 'pre_tool_use'})])
    expect((await runner.runPre('exec', {}, context(dirs.work))).decision).toBe('deny')
    expect(logged[0]).toMatch(/^hooks\[0\] pre_tool_use could not start \(\/bin\/sh in .*missing\): /)

    const mark = join(dirs.out, 'ran')
    const redacted = makeRunner(dirs.project, [hook({command: `touch '${mark}' [redacted]`, event: 'pre_tool_use'})])
    expect(await redacted.runner.runPre('exec', {}, context(dirs.work))).toEqual({
      decision: 'deny',
      reason: expect.stringContaining('reached the hooks plugin redacted'),
    })
    expect(existsSync(mark)).toBe(false)
  })
})

describe('HookRunner post_tool_use', () => {
  it('gives the hook the output, logs its failures and denials, and never changes the result', async () => {
    const capture = script(
      dirs.project,
      'post.sh',
      `printf %s "$HANZO_TOOL_OUTPUT" > '${dirs.out}/output'\ncat > '${dirs.out}/stdin.json'`,
    )
    const {logged, runner} = makeRunner(dirs.project, [
      hook({command: capture, event: 'post_tool_use'}),
      hook({command: script(dirs.project, 'crash.sh', 'exit 7'), event: 'post_tool_use'}),
      hook({command: script(dirs.project, 'deny.sh', 'echo too late >&2; exit 2'), event: 'post_tool_use'}),
    ])
    const {execute, next} = pipeline(runner)
    expect(await execute(call, context(dirs.work))).toEqual(toolOk('tool ran'))
    expect(next).toHaveBeenCalledOnce()
    expect(readFileSync(join(dirs.out, 'output'), 'utf8')).toBe('tool ran')
    expect(JSON.parse(readFileSync(join(dirs.out, 'stdin.json'), 'utf8'))).toMatchObject({
      event: 'post_tool_use',
      tool_error: null,
      tool_is_error: false,
      tool_output: 'tool ran',
    })
    expect(logged).toEqual([
      'hooks[1] post_tool_use exited with code 7; the tool call had already run',
      'hooks[2] post_tool_use denied after the exec call had run (post hooks cannot block): too late',
    ])
  })
})

describe('HookRunner session events', () => {
  it('denies a prompt when a user_prompt_submit hook exits 2, with its reason; the prompt is on stdin', async () => {
    const guard = script(
      dirs.project,
      'prompt.sh',
      `cat > '${dirs.out}/stdin.json'\ngrep -q production '${dirs.out}/stdin.json' && { echo "ask the on-call first" >&2; exit 2; }\nexit 0`,
    )
    const {runner} = makeRunner(dirs.project, [hook({command: guard, event: 'user_prompt_submit'})])
    const input = {cwd: dirs.work, event: 'user_prompt_submit' as const, sessionId: 's-2'}
    expect(await runner.runSessionEvent({...input, prompt: 'deploy to production'})).toEqual({
      decision: 'deny',
      reason: 'hooks[0] user_prompt_submit: ask the on-call first',
    })
    expect(JSON.parse(readFileSync(join(dirs.out, 'stdin.json'), 'utf8'))).toEqual({
      cwd: dirs.work,
      event: 'user_prompt_submit',
      prompt: 'deploy to production',
      session_id: 's-2',
    })
    expect(await runner.runSessionEvent({...input, prompt: 'fix the tests'})).toEqual({decision: 'allow'})
  })

  it('runs only the hooks of the event, whatever their tool_pattern', async () => {
    const mark = join(dirs.out, 'events')
    const log = script(dirs.project, 'log.sh', `echo "$HANZO_HOOK_EVENT $HANZO_SESSION_ID" >> '${mark}'`)
    const {runner} = makeRunner(dirs.project, [
      hook({command: log, event: 'session_start', tool_pattern: 'exec'}),
      hook({command: log, event: 'stop'}),
    ])
    for (const event of ['session_start', 'pre_compact', 'stop'] as const) {
      expect(await runner.runSessionEvent({cwd: dirs.work, event, sessionId: 's-3'})).toEqual({decision: 'allow'})
    }

    expect(readFileSync(mark, 'utf8')).toBe('session_start s-3\nstop s-3\n')
  })
})
