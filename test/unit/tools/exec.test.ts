import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {exec, EXEC_MAX_STREAM_BYTES, execTool} from '../../../src/adapters/tools/exec.js'
import {isAlive, run, toolContext, useTempWorkspace, waitUntil} from './tool-harness.js'

/** The pids a command printed, one per line, `pid:<n>`. */
function pidsIn(output: string): number[] {
  return [...output.matchAll(/pid:(\d+)/g)].map((match) => Number(match[1]))
}

/**
 * exec with a short grace between SIGTERM and SIGKILL, for the tests that end process groups: a
 * member that ignores SIGTERM, or a dead one its reaper has not collected yet (a zombie still
 * counts), would otherwise make each test wait the whole 2 s.
 */
const groupExec = execTool({killGraceMs: 100})

describe('exec', () => {
  const dirs = useTempWorkspace()

  it('runs the command in the workspace and labels the exit code, stdout and stderr', async () => {
    const result = await run(exec, {command: 'pwd; echo oops >&2; exit 3'}, dirs.workspace)
    expect(result).toEqual({
      details: {exitCode: 3, kind: 'execute', stderr: 'oops\n', stdout: `${dirs.workspace}\n`},
      error: null,
      is_error: false,
      output: `exit code: 3\n--- stdout ---\n${dirs.workspace}\n--- stderr ---\noops`,
    })
    expect((await run(exec, {command: 'true'}, dirs.workspace)).output).toBe(
      'exit code: 0\n--- stdout ---\n(none)\n--- stderr ---\n(none)',
    )
  })

  it('runs bash with stdin closed, so a command waiting for input ends', async () => {
    const result = await run(
      exec,
      {command: 'echo "[$BASH_VERSION]"; cat; read -r line || echo no-input'},
      dirs.workspace,
    )
    expect(result.output).toMatch(/^exit code: 0\n--- stdout ---\n\[\d+\.[^\]]+\]\nno-input\n/)
  })

  it('reports the signal that ended the command', async () => {
    expect((await run(exec, {command: 'kill -TERM $$'}, dirs.workspace)).output).toMatch(/^killed by signal SIGTERM\n/)
  })

  describe('the environment', () => {
    const secrets = {
      ANTHROPIC_API_KEY: 'sk-ant-value-1',
      GITHUB_TOKEN: 'ghp-value-2',
      HANZO_API_KEY: 'hk-value-3',
      My_Service_Secret: 'secret-value-4',
      OPENAI_API_KEY: 'sk-value-5',
      npm_token: 'npm-value-6',
      AWS_SECRET_ACCESS_KEY: 'aws-value-7',
      PGPASSWORD: 'pg-value-8',
      DEPLOY_PRIVATE_KEY: 'pk-value-9',
      API_KEY: 'api-value-10',
      OPENAI_KEY: 'openai-value-11',
      GITHUB_PAT: 'pat-value-12',
      DATABASE_URL: 'postgres://app@db/value-13',
      SECRET: 'secret-value-14',
      HTTPS_PROXY: 'http://user:proxy-value-15@proxy:3128',
      SERVICE_URL: 'https://bot:url-value-16@example.com/',
      GOOGLE_APPLICATION_CREDENTIALS: '/keys/value-17.json',
      MY_TOKEN: 'token-value-18',
      AWS_SESSION_TOKEN: 'aws-value-19',
    }
    let saved: Record<string, string | undefined>
    beforeEach(() => {
      saved = Object.fromEntries([...Object.keys(secrets), 'HANZO_VISIBLE'].map((name) => [name, process.env[name]]))
      Object.assign(process.env, secrets, {HANZO_VISIBLE: 'plain-value'})
    })
    afterEach(() => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name]
        else process.env[name] = value
      }
    })

    it('holds no credential the model could print, and everything else', async () => {
      const result = await run(exec, {command: 'env; echo "key=[$HANZO_API_KEY]"'}, dirs.workspace)
      for (const value of Object.values(secrets)) expect(result.output).not.toContain(value)
      expect(result.output).toContain('key=[]')
      expect(result.output).toContain('HANZO_VISIBLE=plain-value')
      expect(result.output).toContain(`PATH=${process.env.PATH}`)
    })

    it('passes what exec.env_passthrough names, by name or glob, and nothing else that looks secret', async () => {
      const result = await run(execTool({envPassthrough: ['MY_TOKEN', 'AWS_*']}), {command: 'env'}, dirs.workspace)
      expect(result.output).toContain('MY_TOKEN=token-value-18')
      expect(result.output).toContain('AWS_SESSION_TOKEN=aws-value-19')
      expect(result.output).toContain('AWS_SECRET_ACCESS_KEY=aws-value-7')
      for (const [name, value] of Object.entries(secrets))
        if (!/^(MY_TOKEN|AWS_)/.test(name)) expect(result.output).not.toContain(value)
    })
  })

  it('kills the whole process group on timeout, grandchildren and SIGTERM-ignoring ones included', async () => {
    const command = [
      'echo "pid:$$"',
      'sleep 300 & echo "pid:$!"',
      `bash -c 'trap "" TERM; exec sleep 300' & echo "pid:$!"`,
      'wait',
    ].join('\n')
    // The command really runs out of time: 500 ms leaves room to start three processes on a busy machine.
    const result = await run(groupExec, {command, timeout_ms: 500}, dirs.workspace)
    expect(result.is_error).toBe(true)
    expect(result.error).toBe('timed out after 500 ms; the command and everything it started were killed')
    const pids = pidsIn(result.output)
    expect(pids).toHaveLength(3)
    for (const pid of pids) await waitUntil(() => !isAlive(pid), `process ${pid} is gone`)
  })

  it('kills the whole process group when the signal aborts', async () => {
    const controller = new AbortController()
    const pidFile = join(dirs.workspace, 'pid.txt')
    const running = run(
      groupExec,
      {command: `sleep 300 & echo "pid:$!" > ${pidFile}; wait`},
      dirs.workspace,
      controller.signal,
    )
    await waitUntil(
      () => existsSync(pidFile) && readFileSync(pidFile, 'utf8').includes('\n'),
      'the command wrote its pid',
    )
    const [pid] = pidsIn(readFileSync(pidFile, 'utf8'))
    expect(isAlive(pid)).toBe(true)
    controller.abort()
    const result = await running
    expect(result).toMatchObject({
      error: 'cancelled; the command and everything it started were killed',
      is_error: true,
    })
    await waitUntil(() => !isAlive(pid), `process ${pid} is gone`)
  })

  it('does not start when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const result = await run(exec, {command: `touch ${join(dirs.workspace, 'ran')}`}, dirs.workspace, controller.signal)
    expect(result.error).toBe('cancelled before the command started')
    expect(existsSync(join(dirs.workspace, 'ran'))).toBe(false)
  })

  it('stops what the command left running in the background when it ends', async () => {
    const result = await run(groupExec, {command: 'sleep 300 & echo "pid:$!"'}, dirs.workspace)
    expect(result.output).toMatch(/^exit code: 0\n/)
    expect(result.output).toContain('[processes the command left running in the background were stopped]')
    const [pid] = pidsIn(result.output)
    await waitUntil(() => !isAlive(pid), `process ${pid} is gone`)
  })

  it('keeps the head and the tail of a large output, saying how much was cut', async () => {
    const total = 3 * EXEC_MAX_STREAM_BYTES
    const result = await run(
      exec,
      {command: `echo START; head -c ${total} /dev/zero | tr '\\0' a; echo; echo END`},
      dirs.workspace,
    )
    expect(result.output).toMatch(
      /^exit code: 0\n--- stdout ---\nSTART\na+\n\[… \d+ bytes cut from the middle …\]\na+\nEND\n--- stderr ---\n\(none\)$/,
    )
    expect(result.output.length).toBeLessThan(EXEC_MAX_STREAM_BYTES + 200)
  })

  it('spawns the argv the sandbox gives (ToolContext.wrapCommand), still as one process group', async () => {
    const asked: Array<[string[], string]> = []
    const wrapCommand = (argv: string[], cwd: string) => {
      asked.push([argv, cwd])
      return ['/usr/bin/env', 'WRAPPED=yes', ...argv]
    }
    const result = await groupExec.execute(
      {command: 'echo "$WRAPPED $PWD"; sleep 300 & echo "pid:$!"'},
      {...toolContext(dirs.workspace), wrapCommand},
    )
    expect(asked).toEqual([
      [
        [expect.stringMatching(/\/(bash|sh)$/), '-c', 'echo "$WRAPPED $PWD"; sleep 300 & echo "pid:$!"'],
        dirs.workspace,
      ],
    ])
    expect(result.output).toMatch(new RegExp(`^exit code: 0\n--- stdout ---\nyes ${dirs.workspace}\n`))
    // Still one process group: what the wrapped command left running is stopped.
    expect(result.output).toContain('[processes the command left running in the background were stopped]')
    const [pid] = pidsIn(result.output)
    await waitUntil(() => !isAlive(pid), `process ${pid} is gone`)
    const broken = await exec.execute(
      {command: 'true'},
      {...toolContext(dirs.workspace), wrapCommand: () => ['/nonexistent/wrapper', 'true']},
    )
    expect(broken.error).toBe('could not start the command with /nonexistent/wrapper: ENOENT')
  })

  it('is a tool error when the command cannot start', async () => {
    const result = await run(exec, {command: 'true'}, join(dirs.workspace, 'missing'))
    expect(result).toMatchObject({
      error: expect.stringMatching(/^could not start the command with .*: ENOENT$/),
      is_error: true,
    })
    expect((await run(exec, {command: 'echo a\0b'}, dirs.workspace)).error).toMatch(/NUL byte/)
  })
})
