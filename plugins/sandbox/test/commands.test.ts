import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {useFakeHost} from '../../../test/helpers/fake-host.js'
import SandboxStatus from '../src/commands/sandbox/status.js'

const fake = useFakeHost('hanzo-sandbox-cmd-')
const answer = fake.answer
const run = (argv: string[]) => fake.run(SandboxStatus, argv)

describe('sandbox status', () => {
  it('reports the configured mode and the isolation the real probes give it', async () => {
    answer({settings: {sandbox: {allowed_paths: ['/srv/data'], mode: 'allowlist'}}})
    const {result, stdout} = await run([])
    expect(result).toMatchObject({allowed_paths: ['/srv/data'], defaulted: false, mode: 'allowlist', platform: process.platform})
    const works = {bwrap: result!.bubblewrap.works, unshare: result!.unshare.works}
    expect(result?.enforcement).toBe(works.bwrap ? 'bwrap' : works.unshare ? 'unshare' : 'path-checks')
    expect(stdout).toMatch(/^mode +allowlist \(settings\)$/m)
    expect(stdout).toMatch(/^allowed +\/srv\/data$/m)
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
