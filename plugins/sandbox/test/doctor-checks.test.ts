import {execFileSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {probeMechanism} from '../src/backends.js'
import type {ContainerProbe} from '../src/container.js'
import {sandboxChecks} from '../src/doctor-checks.js'

let sandbox: Sandbox
let bin: string

beforeEach(() => {
  sandbox = makeSandbox('hanzo-sandbox-')
  bin = join(sandbox.home, 'bin')
  mkdirSync(bin)
})
afterEach(() => sandbox.cleanup())

const signal = new AbortController().signal
const onHost: ContainerProbe = {env: {}, exists: () => false, readFile: () => '0::/init.scope\n'}
const inDocker: ContainerProbe = {env: {}, exists: (p) => p === '/.dockerenv', readFile: () => '0::/\n'}

/** What the real machine can do, asked the plain way, to compare the probes against. */
function realTrial(args: string[]): boolean {
  try {
    execFileSync(args[0], args.slice(1), {stdio: 'ignore', timeout: 5000})
    return true
  } catch {
    return false
  }
}

/** A stand-in that answers --version like bwrap and refuses the trial the way it does where user namespaces are off. */
function refusingTool(name: string, message: string): void {
  writeFileSync(
    join(bin, name),
    `#!/bin/sh\n[ "$1" = --version ] && { echo "bubblewrap 9.9"; exit 0; }\necho "${message}" >&2\nexit 1\n`,
    {mode: 0o755},
  )
}

const bwrapInstalled = realTrial(['sh', '-c', 'command -v bwrap'])

describe('probeMechanism (real bubblewrap and unshare)', () => {
  const plain = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-all', 'true']

  it.skipIf(!bwrapInstalled)('runs bubblewrap for real and agrees with a plain run', async () => {
    const probe = await probeMechanism('bwrap', plain, {cwd: sandbox.home, env: {PATH: process.env.PATH}, signal})
    expect(probe.path).toMatch(/bwrap$/)
    expect(probe.version).toMatch(/^\d+\.\d+/)
    expect(probe.works).toBe(realTrial(['bwrap', ...plain]))
    if (!probe.works) expect(probe.reason).toBeTruthy()
  })

  it('runs unshare for real and agrees with a plain run', async () => {
    const args = ['--user', '--map-root-user', '--mount', 'true']
    const probe = await probeMechanism('unshare', args, {cwd: sandbox.home, env: {PATH: process.env.PATH}, signal})
    expect(probe.works).toBe(realTrial(['unshare', ...args]))
  })

  it('reports why a tool that is present refuses to run', async () => {
    refusingTool('bwrap', 'bwrap: setting up uid map: Permission denied')
    const probe = await probeMechanism('bwrap', plain, {cwd: sandbox.home, env: {PATH: bin}, signal})
    expect(probe).toEqual({
      path: join(bin, 'bwrap'),
      reason: 'bwrap: setting up uid map: Permission denied',
      version: '9.9',
      works: false,
    })
  })

  it('reports a tool that is missing', async () => {
    expect(await probeMechanism('unshare', ['true'], {cwd: sandbox.home, env: {PATH: bin}, signal})).toEqual({
      works: false,
    })
  })
})

describe('sandboxChecks', () => {
  const host = (
    settings: Record<string, unknown>,
    env: Record<string, string | undefined> = {PATH: process.env.PATH},
  ) => ({
    configDir: join(sandbox.home, '.config', 'hanzo'),
    dataDir: join(sandbox.home, '.local', 'share', 'hanzo'),
    env,
    projectRoot: sandbox.home,
    settings,
    signal,
  })

  it.skipIf(!bwrapInstalled)(
    'names the container, and confines commands there by default where bubblewrap works (auto)',
    async () => {
      const checks = await sandboxChecks(host({}), {container: inDocker, platform: 'linux'})
      expect(checks[0]).toMatchObject({detail: 'docker (/.dockerenv)', id: 'sandbox.container', status: 'ok'})
      const bwrap = checks.find((c) => c.id === 'sandbox.bwrap')!
      if (bwrap.status !== 'ok') return
      expect(checks.find((c) => c.id === 'sandbox.mode')).toMatchObject({
        detail: expect.stringMatching(/^workspace \(auto: bubblewrap works inside docker\) -> bubblewrap/),
        status: 'ok',
      })
    },
  )

  it("turns the sandbox off in a container where nothing confines commands, warning that they reach hanzo-dev's own files", async () => {
    refusingTool('bwrap', 'bwrap: No permissions to creating new namespace')
    refusingTool('unshare', 'unshare: unshare failed: Operation not permitted')
    const checks = await sandboxChecks(host({}, {PATH: bin}), {container: inDocker, platform: 'linux'})
    expect(checks.find((c) => c.id === 'sandbox.mode')).toMatchObject({
      detail: expect.stringMatching(
        /^off \(auto: inside docker, and neither bubblewrap nor unshare works \(bubblewrap: bwrap: No permissions.*\)\) -> no restrictions$/,
      ),
      hint: expect.stringContaining("commands can read and change hanzo-dev's settings, credentials and trust store"),
      status: 'warn',
    })
  })

  it('falls back to path checks with a warning when no namespace tool works', async () => {
    refusingTool('bwrap', 'bwrap: No permissions to creating new namespace')
    refusingTool('unshare', 'unshare: unshare failed: Operation not permitted')
    const checks = await sandboxChecks(host({}, {PATH: bin}), {container: onHost, platform: 'linux'})
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]))
    expect(byId['sandbox.container'].detail).toBe('none: running on the host')
    expect(byId['sandbox.bwrap']).toMatchObject({
      detail: `9.9 (${join(bin, 'bwrap')}) fails: bwrap: No permissions to creating new namespace`,
      status: 'warn',
    })
    expect(byId['sandbox.bwrap'].hint).toMatch(/user namespaces/)
    expect(byId['sandbox.unshare']).toMatchObject({status: 'warn'})
    expect(byId['sandbox.mode']).toMatchObject({
      detail: expect.stringMatching(/^workspace \(auto: the default on a host\) -> path checks only/),
      status: 'warn',
    })
  })

  it('does not warn about missing tools when the sandbox is off', async () => {
    const checks = await sandboxChecks(host({sandbox: {mode: 'off'}}, {PATH: bin}), {
      container: onHost,
      platform: 'linux',
    })
    expect(checks.map((c) => c.status)).toEqual(['ok', 'skip', 'skip', 'ok'])
    expect(checks[1].detail).toBe('not found on PATH (not needed: sandbox mode is off)')
  })

  it.skipIf(!bwrapInstalled)('uses bubblewrap when it works here', async () => {
    const checks = await sandboxChecks(host({sandbox: {allowed_paths: ['/srv/data'], mode: 'allowlist'}}), {
      container: onHost,
      platform: 'linux',
    })
    const bwrap = checks.find((c) => c.id === 'sandbox.bwrap')!
    const mode = checks.find((c) => c.id === 'sandbox.mode')!
    if (bwrap.status === 'ok')
      expect(mode.detail).toBe(
        'allowlist, 1 allowed path -> bubblewrap: / read-only, the allowed paths writable, tool processes confined',
      )
    else expect(mode.detail).not.toContain('bubblewrap')
  })

  it('reports what HANZO_SANDBOX_MECHANISM forced and does not try the rest', async () => {
    const checks = await sandboxChecks(
      host({sandbox: {mode: 'workspace'}}, {HANZO_SANDBOX_MECHANISM: 'unshare', PATH: process.env.PATH}),
      {container: onHost, platform: 'linux'},
    )
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]))
    expect(byId['sandbox.bwrap']).toMatchObject({detail: 'not tried: HANZO_SANDBOX_MECHANISM=unshare', status: 'skip'})
    expect(byId['sandbox.mode'].detail).toBe(
      'workspace -> unshare mount namespace: / read-only, the allowed paths writable',
    )
  })

  it('warns about an allowlist with no paths', async () => {
    const checks = await sandboxChecks(host({sandbox: {mode: 'allowlist'}}), {container: onHost, platform: 'linux'})
    expect(checks.find((c) => c.id === 'sandbox.mode')).toMatchObject({
      hint: expect.stringContaining('allowed_paths'),
      status: 'warn',
    })
  })

  it('fails a mode it does not know, naming it', async () => {
    const checks = await sandboxChecks(host({sandbox: {mode: 'strict'}}), {container: onHost, platform: 'linux'})
    expect(checks.at(-1)).toMatchObject({
      detail: expect.stringContaining('"strict"'),
      id: 'sandbox.mode',
      status: 'fail',
    })
  })

  it('skips namespaces off Linux and relies on path checks', async () => {
    const checks = await sandboxChecks(host({}), {container: onHost, platform: 'darwin'})
    expect(checks.map((c) => [c.id, c.status])).toEqual([
      ['sandbox.container', 'ok'],
      ['sandbox.namespaces', 'skip'],
      ['sandbox.mode', 'warn'],
    ])
  })
})
