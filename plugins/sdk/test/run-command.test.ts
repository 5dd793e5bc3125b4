import {tmpdir} from 'node:os'
import {describe, expect, it} from 'vitest'

import {firstLine, runCommand} from '../src/run-command.js'

const node = process.execPath
const options = {cwd: tmpdir(), env: {PATH: process.env.PATH}, timeoutMs: 10_000}

describe('runCommand', () => {
  it('returns the output of a process that exits 0', async () => {
    expect(await runCommand(node, ['-e', 'process.stdout.write("out"); process.stderr.write("err")'], options)).toEqual(
      {
        exitCode: 0,
        ok: true,
        stderr: 'err',
        stdout: 'out',
      },
    )
  })

  it('passes arguments as they are, with no shell in between', async () => {
    const tricky = '$(touch pwned); echo "quoted" | cat'
    const result = await runCommand(node, ['-e', 'process.stdout.write(process.argv[1])', tricky], options)
    expect(result.stdout).toBe(tricky)
  })

  it('explains a failure with the first line the process wrote on stderr', async () => {
    const result = await runCommand(
      node,
      ['-e', 'console.error("\\nbwrap: No permissions\\nmore"); process.exit(3)'],
      options,
    )
    expect(result).toMatchObject({exitCode: 3, failure: 'bwrap: No permissions', ok: false})
  })

  it('explains a silent failure by its exit code', async () => {
    expect((await runCommand(node, ['-e', 'process.exit(4)'], options)).failure).toBe(`${node}: exited with code 4`)
  })

  it('reports a missing program without throwing', async () => {
    expect(await runCommand('hanzo-no-such-program', [], options)).toMatchObject({
      failure: 'hanzo-no-such-program: not found',
      ok: false,
    })
  })

  it('kills a process that outlives its timeout', async () => {
    const result = await runCommand(node, ['-e', 'setTimeout(() => {}, 60_000)'], {...options, timeoutMs: 200})
    expect(result).toMatchObject({failure: `${node}: timed out after 200 ms`, ok: false})
  })

  it('kills a process when the signal aborts', async () => {
    const controller = new AbortController()
    const running = runCommand(node, ['-e', 'setTimeout(() => {}, 60_000)'], {...options, signal: controller.signal})
    setTimeout(() => controller.abort(), 50)
    expect(await running).toMatchObject({failure: `${node}: stopped (the host stopped waiting)`, ok: false})
  })
})

describe('firstLine', () => {
  it('takes the first non-empty line, trimmed and capped', () => {
    expect(firstLine('\n  \n  hello  \nworld')).toBe('hello')
    expect(firstLine('x'.repeat(400))).toHaveLength(300)
    expect(firstLine('')).toBe('')
  })
})
