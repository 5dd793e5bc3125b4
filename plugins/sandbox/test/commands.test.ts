import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {useFakeHost} from '../../../test/helpers/fake-host.js'
import SandboxStatus from '../src/commands/sandbox/status.js'

const fake = useFakeHost('hanzo-sandbox-cmd-')
const answer = fake.answer
const run = (argv: string[]) => fake.run(SandboxStatus, argv)

describe('sandbox status', () => {
  it('reports the configured mode as set', async () => {
    answer({settings: {sandbox: {allowed_paths: ['/srv/data'], mode: 'allowlist'}}})
    const {result, stdout} = await run([])
    expect(result).toMatchObject({
      allowed_paths: ['/srv/data'],
      defaulted: false,
      mode: 'allowlist',
      platform: process.platform,
    })
    expect(stdout).toMatch(/^mode +allowlist \(settings\)$/m)
    expect(stdout).toMatch(/^allowed +\/srv\/data$/m)
  })

  // The known mapping, mode + which trial runs succeed -> enforcement, on stand-in tools whose
  // trial run succeeds (exit 0) or fails (exit 1).
  it.runIf(process.platform === 'linux').each([
    ['allowlist', {bwrap: 0, unshare: 0}, 'bwrap'],
    ['workspace', {bwrap: 1, unshare: 0}, 'unshare'],
    ['workspace', {unshare: 0}, 'unshare'],
    ['allowlist', {bwrap: 1, unshare: 1}, 'path-checks'],
    ['off', {bwrap: 0, unshare: 0}, 'none'],
  ])('mode %s with tools %j is enforced by %s', async (mode, tools, enforcement) => {
    const bin = join(fake.box.home, 'tools')
    mkdirSync(bin, {recursive: true})
    for (const [tool, exit] of Object.entries(tools))
      writeFileSync(join(bin, tool), `#!/bin/sh\nexit ${exit}\n`, {mode: 0o755})
    answer({env: {PATH: bin}, settings: {sandbox: {mode}}})
    const {result} = await run([])
    expect(result?.enforcement).toBe(enforcement)
  })

  it('finds no sandbox tool on an empty PATH and falls back to path checks', async () => {
    answer({env: {PATH: join(fake.box.home, 'empty')}, settings: {sandbox: {mode: 'workspace'}}})
    const {result, stdout} = await run([])
    if (process.platform === 'linux') {
      expect(result?.bubblewrap).toEqual({probed: true, works: false})
      expect(result?.unshare).toEqual({probed: true, works: false})
      expect(stdout).toMatch(/^bubblewrap +not found on PATH$/m)
    }

    expect(result?.enforcement).toBe('path-checks')
    expect(stdout).toMatch(/^isolation +path checks only/m)
  })

  it('turns a settings section it cannot read into one message and exit 1', async () => {
    answer({settings: {sandbox: 'on'}})
    const {error} = await run([])
    expect(error?.message).toMatch(/"sandbox" must be an object/)
    expect(error?.oclif?.exit).toBe(1)
  })
})
