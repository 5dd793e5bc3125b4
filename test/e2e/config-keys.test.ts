import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox, unwrapped} from '../helpers/cli.js'

describe('hanzo-dev config keys', () => {
  let box: Sandbox
  let repo: string
  const run = (...args: string[]) => runCli(args, {cwd: repo, env: box.env})
  const write = (file: string, content: string) => {
    mkdirSync(join(file, '..'), {recursive: true})
    writeFileSync(file, content)
  }

  beforeEach(() => {
    box = makeSandbox()
    repo = join(box.home, 'repo')
    mkdirSync(join(repo, '.git'), {recursive: true})
  })
  afterEach(() => box.cleanup())

  it('lists every setting with its type, default, variable, tiers and description (--json)', async () => {
    const {exitCode, stderr, stdout} = await run('config', 'keys', '--json')
    expect(exitCode, stderr).toBe(0)
    const keys = new Map((JSON.parse(stdout).keys as Array<{key: string}>).map((k) => [k.key, k]))
    expect(keys.get('max_turns')).toEqual({
      default: 25,
      description: 'Model requests one `run` may make (--max-turns overrides it).',
      key: 'max_turns',
      rules: [],
      tiers: ['user', 'project', 'local'],
      type: 'integer, at least 1',
    })
    expect(keys.get('api_key')).toMatchObject({env: 'HANZO_API_KEY', tiers: ['user']})
    expect(keys.get('hooks.<n>.event')).toMatchObject({values: expect.arrayContaining(['pre_tool_use', 'pre_compact'])})
  })

  it('prints one block per setting, each part whole on a line when piped, and reads no settings file', async () => {
    write(join(repo, '.hanzo', 'settings.json'), '{"model": ')
    const {exitCode, stderr, stdout} = await run('config', 'keys', 'sandbox')
    expect(exitCode, stderr).toBe(0)
    expect(stdout).toContain(
      'sandbox.mode  auto | off | workspace | allowlist, default auto, env HANZO_SANDBOX_MODE\n' +
        "    workspace: tools reach only the project, commands write only there and in the package managers' caches; allowlist: the project and allowed_paths, writing only to allowed_paths; off: no confinement; auto: workspace wherever it confines commands (containers too), off only inside a container where neither bubblewrap nor unshare works.\n" +
        '    → project and local files may not set "off"',
    )
    expect(stdout).not.toContain('mcp_servers')
  })

  it('points every "unknown setting" at config keys', async () => {
    const keys = await run('config', 'keys', 'sandbox.mod')
    expect(keys.exitCode).toBe(1)
    expect(unwrapped(keys.stderr)).toContain(
      'Unknown setting "sandbox.mod"; did you mean sandbox.mode? Try this: hanzo-dev config keys lists every setting',
    )

    const set = await run('config', 'set', 'zzzzzz', 'x')
    expect(set.exitCode).toBe(1)
    expect(unwrapped(set.stderr)).toContain(
      'Unknown setting "zzzzzz" Try this: hanzo-dev config keys lists every setting',
    )

    // config get told "not set" for a key no settings file can set.
    const get = await run('config', 'get', 'zzzzzz')
    expect(get.exitCode).toBe(1)
    expect(unwrapped(get.stderr)).toContain('Unknown setting "zzzzzz"')

    write(join(repo, '.hanzo', 'settings.json'), '{"modle": "m"}\n')
    const warned = await run('config', 'get', 'model')
    expect(unwrapped(warned.stderr)).toContain(
      'modle: unknown setting, ignored; did you mean model? (hanzo-dev config keys lists the settings)',
    )
    expect(warned.stderr).not.toMatch(/\n\s+at /)
  })
})
