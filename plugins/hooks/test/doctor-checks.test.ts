import {existsSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {useSandboxDirs} from '../../../test/helpers/cli.js'
import {hooksChecks} from '../src/doctor-checks.js'

const dirs = useSandboxDirs('hanzo-hooks-', 'project', 'bin', 'project/scripts')

const host = (hooks: unknown) => ({
  env: {HOME: dirs.box.home, PATH: dirs.bin},
  projectRoot: dirs.project,
  settings: {hooks},
})

describe('hooksChecks', () => {
  it('says so when no hooks are configured', async () => {
    expect(await hooksChecks(host(undefined))).toEqual([expect.objectContaining({id: 'hooks.config', status: 'skip'})])
  })

  it('warns about each hook of an untrusted project, naming what to run', async () => {
    const untrusted = {
      hooks: [{command: 'touch x', event: 'stop', tier: 'local'}],
      mcp_servers: {},
      status: 'untrusted' as const,
    }
    expect(await hooksChecks({...host(undefined), untrusted})).toEqual([
      {
        detail: "not trusted: this project's settings are not trusted",
        hint: 'run hanzo-dev trust to review and trust them',
        id: 'hooks.untrusted.0',
        status: 'warn',
        title: 'hook hooks[0] stop (local)',
      },
    ])
  })

  it('passes hooks whose program exists: on PATH, relative to the project, a builtin', async () => {
    writeFileSync(join(dirs.bin, 'lint-hook'), '#!/bin/sh\nexit 0\n', {mode: 0o755})
    writeFileSync(join(dirs.project, 'scripts', 'guard.sh'), '#!/bin/sh\nexit 0\n', {mode: 0o755})
    const checks = await hooksChecks(
      host([
        {command: 'lint-hook --token=abc123', event: 'post_tool_use', tool_pattern: 'fs_*'},
        {command: './scripts/guard.sh', event: 'pre_tool_use', timeout_ms: 2000},
        {command: 'exit 2', event: 'pre_tool_use', tool_pattern: 'exec'},
      ]),
    )
    expect(checks.map((c) => c.status)).toEqual(['ok', 'ok', 'ok'])
    expect(checks[0].detail).toBe(`lint-hook (${join(dirs.bin, 'lint-hook')}), tools fs_*, timeout 5000 ms`)
    expect(checks[1].detail).toBe(`./scripts/guard.sh (${join(dirs.project, 'scripts', 'guard.sh')}), timeout 2000 ms`)
    expect(checks[2].detail).toContain('shell builtin')
    // Only the program is shown, never the rest of the line (it may carry a token).
    expect(JSON.stringify(checks)).not.toContain('abc123')
  })

  it('fails a hook whose program is missing or not executable, naming the hook', async () => {
    writeFileSync(join(dirs.project, 'scripts', 'plain.sh'), 'exit 0\n', {mode: 0o644})
    const checks = await hooksChecks(
      host([
        {command: 'no-such-hook', event: 'pre_tool_use'},
        {command: './scripts/plain.sh', event: 'stop', tier: 'project'},
      ]),
    )
    expect(checks[0]).toMatchObject({
      detail: 'no-such-hook: not found on PATH',
      id: 'hooks.hook.0',
      status: 'fail',
      title: 'hook hooks[0] pre_tool_use',
    })
    expect(checks[1]).toMatchObject({
      detail: './scripts/plain.sh: no executable file there',
      status: 'fail',
      title: 'hook hooks[1] stop (project)',
    })
    expect(checks[1].hint).toContain(dirs.project)
  })

  it('fails a hook that does not parse and still checks the others', async () => {
    const checks = await hooksChecks(
      host([
        {command: 'true', event: 'on_save'},
        {command: 'true', event: 'stop'},
      ]),
    )
    expect(checks.map((c) => c.status)).toEqual(['fail', 'ok'])
    expect(checks[0].detail).toMatch(/unknown event "on_save"/)
  })

  it('fails when hooks is not a list', async () => {
    expect(await hooksChecks(host('echo'))).toEqual([expect.objectContaining({id: 'hooks.config', status: 'fail'})])
  })

  it('never runs a hook', async () => {
    const marker = join(dirs.box.home, 'ran')
    writeFileSync(join(dirs.bin, 'touches'), `#!/bin/sh\ntouch '${marker}'\n`, {mode: 0o755})
    await hooksChecks(host([{command: 'touches', event: 'session_start'}]))
    expect(existsSync(marker)).toBe(false)
  })
})
