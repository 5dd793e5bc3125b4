import {cpSync, existsSync, mkdirSync, readFileSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, REPO_ROOT, runCli, type Sandbox, unwrapped} from '../helpers/cli.js'

const HELLO = join(REPO_ROOT, 'examples', 'plugin-hello')
const NAME = 'hanzo-dev-plugin-hello'

/**
 * examples/plugin-hello, a plugin with no dependencies at all, goes through a user's whole
 * round: `npm pack`, `plugins install`, use, `plugins uninstall`, then `plugins link` / `unlink`.
 */
describe('a third-party plugin, end to end', () => {
  let box: Sandbox
  let env: Record<string, string>
  let tarball: string
  const cli = (...args: string[]) => runCli(args, {cwd: box.home, env})
  const userPlugins = () => JSON.parse(readFileSync(join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'package.json'), 'utf8'))

  beforeAll(async () => {
    box = makeSandbox()
    env = {
      ...box.env,
      // npm stays inside the sandbox and off the network: offline, and a registry nobody
      // listens on, so a request that slipped through would fail instead of reaching npmjs.
      npm_config_audit: 'false',
      npm_config_cache: join(box.home, '.npm'),
      npm_config_fund: 'false',
      npm_config_globalconfig: join(box.home, 'npmrc-global'),
      npm_config_offline: 'true',
      npm_config_registry: 'http://127.0.0.1:9/',
      npm_config_update_notifier: 'false',
      npm_config_userconfig: join(box.home, '.npmrc'),
    }
    const packDir = join(box.home, 'pack')
    mkdirSync(packDir)
    const {stdout} = await execa('npm', ['pack', '--json', '--pack-destination', packDir], {cwd: HELLO, env})
    tarball = join(packDir, JSON.parse(stdout)[0].filename)
  })
  afterAll(() => box.cleanup())

  it('ships an oclif.manifest.json that matches its commands', async () => {
    const copy = join(box.home, 'manifest-check')
    cpSync(HELLO, copy, {recursive: true})
    rmSync(join(copy, 'oclif.manifest.json'))
    const oclif = join(REPO_ROOT, 'node_modules', 'oclif', 'bin', 'run.js')
    await execa(process.execPath, [oclif, 'manifest'], {cwd: copy, env: {...env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true'}})
    const fresh = readFileSync(join(copy, 'oclif.manifest.json'), 'utf8')
    expect(fresh, 'regenerate it: cd examples/plugin-hello && node ../../node_modules/oclif/bin/run.js manifest').toBe(
      readFileSync(join(HELLO, 'oclif.manifest.json'), 'utf8'),
    )
  })

  it('installs from a tarball offline, runs, reports, and uninstalls', async () => {
    // A bare path: plugin-plugins alone would read it as a GitHub "owner/repo".
    const install = await cli('plugins', 'install', tarball)
    expect(install.exitCode, install.stderr).toBe(0)
    expect(existsSync(join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'node_modules', NAME, 'package.json'))).toBe(true)

    expect((await cli('hello', 'Ada')).stdout).toBe('Hello, Ada!')
    expect(JSON.parse((await cli('hello', '--json')).stdout)).toEqual({greeting: 'Hello, world!'})
    expect((await cli('hello', '--help')).stdout).toContain('hanzo-dev hello [NAME] [--json]')

    const doctor = JSON.parse((await cli('doctor', '--json')).stdout)
    expect(doctor.checks).toContainEqual(expect.objectContaining({id: 'hello.ready', source: NAME, status: 'ok'}))

    const listed = JSON.parse((await cli('plugins', '--json')).stdout)
    expect(listed).toContainEqual(expect.objectContaining({name: NAME, type: 'user'}))

    const uninstall = await cli('plugins', 'uninstall', NAME)
    expect(uninstall.exitCode, uninstall.stderr).toBe(0)
    expect(userPlugins().oclif.plugins).toEqual([])
    expect(existsSync(join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'node_modules', NAME))).toBe(false)
    expect((await cli('hello')).exitCode).not.toBe(0)
  })

  it('refuses a local path that is not there at once, instead of reading it as a GitHub repository', async () => {
    for (const missing of ['./nosuch.tgz', '../nosuch', '/nosuch/plugin.tgz', '~/nosuch.tgz']) {
      const out = await cli('plugins', 'install', missing)
      expect(out.exitCode, out.stderr).toBe(2)
      expect(unwrapped(out.stderr)).toContain(`No such file or directory: ${missing}`)
      expect(out.stderr).not.toMatch(/github|\n\s+at /i)
    }
  })

  it('links from a directory, runs, and unlinks', async () => {
    // The example has no dependencies: nothing to install, so no npm run and no lockfile warning.
    const link = await cli('plugins', 'link', '--no-install', HELLO)
    expect(link.exitCode, link.stderr).toBe(0)
    expect((await cli('hello', 'Bob')).stdout).toBe('Hello, Bob!')

    const listed = JSON.parse((await cli('plugins', '--json')).stdout)
    expect(listed).toContainEqual(expect.objectContaining({name: NAME, type: 'link'}))

    const unlink = await cli('plugins', 'unlink', NAME)
    expect(unlink.exitCode, unlink.stderr).toBe(0)
    expect(userPlugins().oclif.plugins).toEqual([])
    expect((await cli('hello')).exitCode).not.toBe(0)
  })
})
