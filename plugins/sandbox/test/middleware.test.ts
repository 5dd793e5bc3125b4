import {execFileSync} from 'node:child_process'
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {join} from 'node:path'

import {
  findExecutable,
  type Middleware,
  type ProcessConfinement,
  type ToolCall,
  type ToolContext,
  type ToolExecutorFn,
  toolOk,
} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {host as hostApi} from '../../../src/host.js'

import {builtinTools} from '../../../src/adapters/tools/index.js'
import {describeCall, describedCall} from '../../../src/core/tools/call-description.js'
import {useSandboxDirs} from '../../../test/helpers/cli.js'
import {isAlive, waitUntil} from '../../../test/helpers/processes.js'
import contribute from '../src/hooks/contribute.js'
import type {SandboxConfig} from '../src/isolation.js'
import {refusingMiddleware, sandboxMiddleware} from '../src/middleware.js'
import {Sandbox, type SandboxOptions} from '../src/sandbox.js'

// The middleware around the real built-in tools, as the pipeline runs it: refusals come back as
// tool errors, exec runs through the real mechanism and its process-group kill still works.

const dirs = useSandboxDirs('hanzo-sandbox-mw-', 'ws', 'outside')
const tools = new Map(builtinTools().map((t) => [t.name, t]))
const execute: ToolExecutorFn = (call, context) => tools.get(call.name)!.execute(call.input, context)
/** A call as the pipeline hands it to middleware: with what its tool says of it (none for a tool it does not know). */
const call = (name: string, input: Record<string, unknown>): ToolCall => {
  const tool = tools.get(name)
  return tool ? describedCall(name, input, describeCall(tool, input)) : {input, name}
}

const bwrapWorks = (() => {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', 'true'], {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
})()

function pipeline(config: Partial<SandboxConfig> = {}, options: SandboxOptions = {}) {
  const sandbox = new Sandbox({allowed_paths: [], mode: 'workspace', network: true, ...config}, dirs.ws, options)
  const run = sandboxMiddleware(sandbox).wrap(execute)
  return (name: string, input: Record<string, unknown>, context: Partial<ToolContext> = {}) =>
    run(call(name, input), {cwd: dirs.ws, sessionId: 's', signal: new AbortController().signal, ...context})
}

/** Host pids of the live processes whose command line holds `token`. */
function processesWith(token: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(token)
      } catch {
        return false
      }
    })
    .map(Number)
    .filter((pid) => isAlive(pid))
}

describe('sandbox middleware: file tools', () => {
  it('turns a path the sandbox refuses into a tool error naming it and why, and leaves the file alone', async () => {
    symlinkSync(dirs.outside, join(dirs.ws, 'out'))
    writeFileSync(join(dirs.outside, 'shared.txt'), 'outside\n')
    linkSync(join(dirs.outside, 'shared.txt'), join(dirs.ws, 'shared.txt'))
    const call = pipeline()

    expect(await call('fs_write', {content: 'x', path: 'out/new.txt'})).toEqual({
      error: `sandbox: fs_write refused: out/new.txt (${join(dirs.outside, 'new.txt')}) is outside the workspace ${dirs.ws}`,
      is_error: true,
      output: '',
      // Marked as the middleware's refusal: the host records it in the audit log.
      refused: true,
    })
    expect(existsSync(join(dirs.outside, 'new.txt'))).toBe(false)
    expect(await call('fs_edit', {new_string: 'pwned', old_string: 'outside', path: 'shared.txt'})).toMatchObject({
      error: expect.stringMatching(/^sandbox: fs_edit refused: shared.txt .* has 2 hard links/),
      is_error: true,
    })
    expect(readFileSync(join(dirs.outside, 'shared.txt'), 'utf8')).toBe('outside\n')
    expect(await call('fs_read', {path: '../outside/shared.txt'})).toMatchObject({
      error: expect.stringContaining('is outside the workspace'),
      is_error: true,
    })
    expect(await call('fs_grep', {path: '../outside', pattern: 'x'})).toMatchObject({
      error: expect.stringContaining('sandbox: fs_grep refused'),
      is_error: true,
    })
  })

  it('lets allowed calls through to the tool', async () => {
    const call = pipeline()
    expect(await call('fs_write', {content: 'hi\n', path: 'notes/a.txt'})).toMatchObject({is_error: false})
    expect((await call('fs_read', {path: 'notes/a.txt'})).output).toContain('hi')
    expect((await call('fs_list', {})).output).toContain('notes')
  })

  it('passes everything through in mode off', async () => {
    const sandbox = new Sandbox({allowed_paths: [], mode: 'off', network: true}, dirs.ws)
    expect(sandboxMiddleware(sandbox).wrap(execute)).toBe(execute)
  })

  it('refuses the tools it judges, with the problem, when the settings cannot be read', async () => {
    const run = refusingMiddleware('sandbox.mode "strict" is not one of off, workspace, allowlist').wrap(async () => ({
      error: null,
      is_error: false,
      output: 'ran',
    }))
    const context = {cwd: dirs.ws, sessionId: 's', signal: new AbortController().signal}
    expect(await run(call('fs_read', {path: 'a'}), context)).toMatchObject({
      error: expect.stringMatching(/^sandbox: fs_read refused: sandbox.mode "strict"/),
      is_error: true,
    })
    expect(await run(call('mcp__x__y', {}), context)).toMatchObject({output: 'ran'})
  })
})

describe('sandbox middleware: exec', () => {
  it('refuses a working directory outside the workspace', async () => {
    const result = await pipeline()('exec', {command: `touch ${join(dirs.outside, 'ran')}`}, {cwd: dirs.outside})
    expect(result).toMatchObject({
      error: `sandbox: exec refused: the working directory ${dirs.outside} is outside the workspace ${dirs.ws}`,
      is_error: true,
    })
    expect(existsSync(join(dirs.outside, 'ran'))).toBe(false)
  })

  it.skipIf(!bwrapWorks)('runs the command under bubblewrap and says so on the first result only', async () => {
    const call = pipeline()
    mkdirSync(join(dirs.ws, '.git', 'hooks'), {recursive: true})
    const first = await call('exec', {
      command: `echo in > in.txt && echo ok; echo x > .git/hooks/pre-commit || echo hooks-ro`,
    })
    expect(first.output).toMatch(
      /^exit code: 0\n--- stdout ---\nok\nhooks-ro\n--- stderr ---\n.*Read-only file system/s,
    )
    expect(
      first.output.endsWith(
        `\n[sandbox: commands run under bubblewrap: writable only ${dirs.ws} (and a private /tmp)]`,
      ),
    ).toBe(true)
    expect(readFileSync(join(dirs.ws, 'in.txt'), 'utf8')).toBe('in\n')
    const second = await call('exec', {command: 'echo again'})
    expect(second.output).toBe('exit code: 0\n--- stdout ---\nagain\n--- stderr ---\n(none)')
  })

  it.skipIf(!bwrapWorks)('removes a .hanzo a command made and says so in its result', async () => {
    const result = await pipeline()('exec', {
      command: 'mkdir -p pkg/.hanzo && echo "{}" > pkg/.hanzo/settings.json && echo made',
    })
    expect(result.output).toContain('made')
    expect(result.output).toContain(
      '\n[sandbox: removed pkg/.hanzo: the command made it where git or hanzo-dev would read it',
    )
    expect(existsSync(join(dirs.ws, 'pkg', '.hanzo'))).toBe(false)
  })

  it.skipIf(!bwrapWorks)('refuses a command when what it must not change cannot be listed', async () => {
    // bubblewrap and what its trial run starts, but no find; not under /tmp, which commands see empty.
    const bin = mkdtempSync('/var/tmp/hanzo-sandbox-mw-bin-')
    try {
      for (const tool of ['bwrap', 'true'])
        symlinkSync((await findExecutable(tool, {cwd: dirs.ws, env: process.env}))!, join(bin, tool))
      const result = await pipeline({}, {env: {PATH: bin}})('exec', {command: 'touch ran'})
      expect(result).toMatchObject({
        error: expect.stringMatching(/^sandbox: exec refused: find\(1\) is not on PATH/),
        is_error: true,
      })
      expect(existsSync(join(dirs.ws, 'ran'))).toBe(false)
    } finally {
      rmSync(bin, {force: true, recursive: true})
    }
  })

  it('says when commands run unconfined because nothing works here', async () => {
    const result = await pipeline({network: false}, {env: {PATH: join(dirs.box.home, 'empty')}})('exec', {
      command: 'echo hi',
    })
    expect(result.output).toContain(
      '\n[sandbox: commands run unconfined and with network, only their working directory is checked: neither works here (bubblewrap: not found; unshare: not found)]',
    )
  })

  it.skipIf(!bwrapWorks)('still kills everything the command started on cancel, under bubblewrap', async () => {
    const token = `${900_000 + (process.pid % 90_000)}`
    const controller = new AbortController()
    const command = [
      `sleep ${token}1 &`,
      `sh -c 'trap "" TERM; exec sleep ${token}2' &`,
      `setsid sleep ${token}3 &`,
      'wait',
    ].join('\n')
    const running = pipeline()('exec', {command}, {signal: controller.signal})
    await waitUntil(() => processesWith(`sleep ${token}`).length === 3, 'the three sleeps run')
    const pids = processesWith(`sleep ${token}`)
    controller.abort()
    expect(await running).toMatchObject({
      error: 'cancelled; the command and everything it started were killed',
      is_error: true,
    })
    for (const pid of pids) await waitUntil(() => !isAlive(pid), `process ${pid} is gone`)
  })

  it.skipIf(!bwrapWorks)('still kills everything the command started on timeout, under bubblewrap', async () => {
    const token = `${800_000 + (process.pid % 90_000)}`
    const command = `echo started > started.txt; sleep ${token} & sh -c 'trap "" TERM; exec sleep ${token}' & wait`
    const result = await pipeline()('exec', {command, timeout_ms: 1000})
    expect(result).toMatchObject({
      error: 'timed out after 1000 ms; the command and everything it started were killed',
      is_error: true,
    })
    expect(existsSync(join(dirs.ws, 'started.txt'))).toBe(true)
    await waitUntil(() => processesWith(`sleep ${token}`).length === 0, 'no sleep is left')
  })
})

describe('sandbox middleware: processes that outlive a call (language servers)', () => {
  /** The confinement a tool called through the middleware is given for them. */
  async function given(middleware: Middleware, name = 'lsp_diagnostics'): Promise<ProcessConfinement | undefined> {
    let seen: ToolContext | undefined
    const run = middleware.wrap(async (_call, context) => {
      seen = context
      return toolOk('')
    })
    await run(call(name, {path: 'a.ts'}), {cwd: dirs.ws, sessionId: 's', signal: new AbortController().signal})
    return seen?.confineProcess?.()
  }

  const sandbox = (options: SandboxOptions = {}) =>
    new Sandbox({allowed_paths: [], mode: 'workspace', network: true}, dirs.ws, options)

  it.skipIf(!bwrapWorks)(
    'gives every tool call the confinement exec gets: writes only in the workspace, and what it made where git or hanzo-dev reads is removed after it',
    async () => {
      // Not under /tmp, which confined processes see empty: the write must fail on a place they see.
      const outside = mkdtempSync('/var/tmp/hanzo-sandbox-mw-outside-')
      try {
        for (const name of ['lsp_diagnostics', 'fs_write']) {
          const confined = await given(sandboxMiddleware(sandbox()), name)
          if (!confined || 'refused' in confined) throw new Error(`not confined: ${JSON.stringify(confined)}`)
          const script = `touch ${join(outside, 'escaped')} 2>/dev/null || echo refused; touch inside; mkdir -p pkg/.hanzo`
          const [file, ...args] = confined.wrap(['sh', '-c', script], dirs.ws)
          expect(execFileSync(file, args, {cwd: dirs.ws, encoding: 'utf8'})).toBe('refused\n')
          expect(existsSync(join(outside, 'escaped'))).toBe(false)
          expect(existsSync(join(dirs.ws, 'inside'))).toBe(true)
          expect(await confined.finish()).toEqual(['pkg/.hanzo'])
        }
      } finally {
        rmSync(outside, {force: true, recursive: true})
      }
    },
  )

  it('holds them back where nothing can confine them, though path checks let commands run', async () => {
    expect(await given(sandboxMiddleware(sandbox({env: {PATH: join(dirs.box.home, 'empty')}})))).toEqual({
      refused:
        'the sandbox (workspace mode) cannot confine processes here (bubblewrap: not found; unshare: not found); hanzo-dev sandbox status says more',
    })
  })

  it('holds them back when the sandbox settings cannot be read', async () => {
    expect(await given(refusingMiddleware('sandbox.mode "strict" is not one of off, workspace, allowlist'))).toEqual({
      refused: 'sandbox.mode "strict" is not one of off, workspace, allowlist; fix the sandbox settings',
    })
  })
})

describe('hanzo:contribute', () => {
  const answer = (settings: Record<string, unknown>) =>
    contribute({
      host: {
        apiVersion: 1,
        configDir: join(dirs.box.home, 'config'),
        cwd: dirs.ws,
        dataDir: join(dirs.box.home, 'data'),
        env: process.env,
        projectRoot: dirs.ws,
        settings,
        signal: new AbortController().signal,
      },
      hostApi,
    })
  const context = {cwd: dirs.ws, sessionId: 's', signal: new AbortController().signal}

  it('answers with the sandbox middleware and tells the model what it does', async () => {
    const contribution = await answer({sandbox: {mode: 'workspace', network: false}})
    expect(contribution?.context).toMatch(
      new RegExp(
        `^Sandbox \\(workspace mode\\): The file tools and exec work inside the workspace ${dirs.ws} only\\. `,
      ),
    )
    expect(contribution?.context).toContain('a private /tmp, without network')
    expect(contribution?.status).toBe('sandbox: workspace')
    const run = contribution!.middleware![0].wrap(execute)
    expect(await run(call('fs_read', {path: '../outside/x'}), context)).toMatchObject({
      error: expect.stringContaining('is outside the workspace'),
      is_error: true,
    })
  })

  it('adds nothing to the prompt in mode off', async () => {
    const contribution = await answer({sandbox: {mode: 'off'}})
    expect(contribution?.context).toBeUndefined()
    expect(contribution?.status).toBe('sandbox: off')
  })

  it('closes rather than opens when the settings cannot be read', async () => {
    const contribution = await answer({sandbox: {mode: 'strict'}})
    expect(contribution?.status).toBe('sandbox: settings unreadable, tools refused')
    const run = contribution!.middleware![0].wrap(execute)
    expect(await run(call('exec', {command: 'true'}), context)).toMatchObject({
      error:
        'sandbox: exec refused: sandbox.mode "strict" is not one of auto, off, workspace, allowlist; fix the sandbox settings',
      is_error: true,
    })
  })
})
