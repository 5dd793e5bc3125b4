import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, REPO_ROOT, runCli, type Sandbox} from '../helpers/cli.js'

const SCRIPT = join(REPO_ROOT, 'scripts', 'command-surface.js')
const SNAPSHOT = join(REPO_ROOT, 'test', 'command-surface.json')

describe('command surface', () => {
  let box: Sandbox
  beforeEach(() => {
    box = makeSandbox()
  })
  afterEach(() => box.cleanup())

  it('matches test/command-surface.json: commands, plugins, aliases, flags and args', async () => {
    const {exitCode, stderr, stdout} = await runCli(['--print'], {bin: SCRIPT, cwd: box.home, env: box.env})
    expect(exitCode, stderr).toBe(0)
    expect(
      JSON.parse(stdout),
      'the command surface changed; if that is intended, run `node scripts/command-surface.js` and commit the file',
    ).toEqual(JSON.parse(readFileSync(SNAPSHOT, 'utf8')))
  })
})
