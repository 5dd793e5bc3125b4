import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'

describe('sandbox settings from a repository', () => {
  const dirs = useSandboxDirs('hanzo-sandbox-settings-', 'project')

  it('may tighten the sandbox but never turn it off or open the network', async () => {
    mkdirSync(join(dirs.project, '.hanzo'))
    writeFileSync(
      join(dirs.project, '.hanzo', 'settings.json'),
      JSON.stringify({sandbox: {mode: 'off', network: true}}),
    )
    const loose = await runCli(['config', 'get', 'sandbox', '--json'], {cwd: dirs.project, env: dirs.box.env})
    expect(loose.exitCode).toBe(1)
    expect(unwrapped(loose.stderr)).toMatch(/sandbox\.mode.*only read from your user settings/)
    expect(unwrapped(loose.stderr)).toMatch(/sandbox\.network.*only read from your user settings/)

    writeFileSync(
      join(dirs.project, '.hanzo', 'settings.json'),
      JSON.stringify({sandbox: {mode: 'workspace', network: false}}),
    )
    const tight = await runCli(['config', 'get', 'sandbox', '--json'], {cwd: dirs.project, env: dirs.box.env})
    expect(tight.exitCode, tight.stderr).toBe(0)
    expect(JSON.parse(tight.stdout)).toMatchObject({value: {mode: 'workspace', network: false}})
  })
})
