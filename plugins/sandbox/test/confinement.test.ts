import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:net'
import {join} from 'node:path'

import {runCommand} from '@hanzo-dev/sdk'
import {afterAll, afterEach, beforeAll, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, type Sandbox as TempBox} from '../../../test/helpers/cli.js'
import type {Mechanism, SandboxConfig} from '../src/isolation.js'
import {Sandbox, type SandboxOptions} from '../src/sandbox.js'
import {mountPoints} from '../src/wrappers.js'

// Commands under the real mechanisms, each forced in turn. The workspace lives under /tmp (where
// tests live), so the private /tmp must still show it; "outside" is under /var/tmp, so a refused
// write there proves the read-only root, not the private /tmp.

function works(args: string[]): boolean {
  try {
    execFileSync(args[0], args.slice(1), {stdio: 'ignore', timeout: 5000})
    return true
  } catch {
    return false
  }
}

const isRoot = process.getuid?.() === 0
const VARIANTS: Array<{name: string; mechanism: Mechanism; userNamespace?: boolean; available: boolean}> = [
  {available: works(['bwrap', '--ro-bind', '/', '/', 'true']), mechanism: 'bwrap', name: 'bubblewrap'},
  {available: works(['unshare', '--user', '--map-root-user', '--mount', 'true']), mechanism: 'unshare', name: 'unshare with a user namespace', userNamespace: true},
  {available: isRoot && works(['unshare', '--mount', 'true']), mechanism: 'unshare', name: 'unshare as root', userNamespace: false},
]

let box: TempBox
let ws: string
let outside: string
beforeEach(() => {
  box = makeSandbox('hanzo-confine-')
  ws = join(box.home, 'ws')
  mkdirSync(join(ws, '.git', 'hooks'), {recursive: true})
  writeFileSync(join(ws, '.git', 'config'), '[core]\n')
  mkdirSync(join(ws, '.hanzo'))
  writeFileSync(join(ws, '.hanzo', 'settings.json'), '{}\n')
  outside = mkdtempSync('/var/tmp/hanzo-confine-outside-')
})
afterEach(() => {
  box.cleanup()
  rmSync(outside, {force: true, recursive: true})
})

function sandboxFor(variant: (typeof VARIANTS)[number], config: Partial<SandboxConfig> = {}, options: SandboxOptions = {}, workspace = ws): Sandbox {
  const settings: SandboxConfig = {allowed_paths: [], mode: 'workspace', network: true, ...config}
  return new Sandbox(settings, workspace, {mechanisms: [variant.mechanism], userNamespace: variant.userNamespace, ...options})
}

/** Runs `script` by sh the way exec would, wrapped by the sandbox's mechanism. */
async function confined(sandbox: Sandbox, script: string, cwd = ws): Promise<string> {
  const wrap = await sandbox.commandWrapper()
  expect(wrap, 'a mechanism is in force').toBeDefined()
  const [file, ...args] = wrap!(['/bin/sh', '-c', script], cwd)
  const result = await runCommand(file, args, {cwd, env: process.env, timeoutMs: 30_000})
  expect(result.stderr).not.toMatch(/^(bwrap|unshare|mount|setpriv):/m)
  return result.stdout
}

describe.each(VARIANTS)('commands under $name', (variant) => {
  it.skipIf(!variant.available)('passes its trial run and is the one in force', async () => {
    const confinement = await sandboxFor(variant).confinement()
    expect(confinement.enforcement).toBe(variant.mechanism)
  })

  it.skipIf(!variant.available)('write inside the workspace only: / is read-only, git hooks and config and .hanzo too, /tmp is private', async () => {
    const privateTmp = `/tmp/hanzo-private-${process.pid}-${Date.now()}`
    const out = await confined(
      sandboxFor(variant),
      [
        'echo in > inside.txt && echo inside-ok',
        `echo x > ${outside}/escaped.txt 2>/dev/null || echo outside-refused`,
        'echo x > .git/hooks/pre-commit 2>/dev/null || echo hooks-refused',
        'echo x >> .git/config 2>/dev/null || echo config-refused',
        'echo x > .hanzo/settings.json 2>/dev/null || echo hanzo-refused',
        'mv .git .git-old 2>/dev/null || echo git-pinned',
        'mount -o remount,rw / 2>/dev/null || echo no-remount',
        `echo t > ${privateTmp} && echo tmp-ok`,
        'echo > /dev/null && echo devnull-ok',
      ].join('\n'),
    )
    expect(out.split('\n').filter(Boolean)).toEqual([
      'inside-ok',
      'outside-refused',
      'hooks-refused',
      'config-refused',
      'hanzo-refused',
      'git-pinned',
      'no-remount',
      'tmp-ok',
      'devnull-ok',
    ])
    expect(readFileSync(join(ws, 'inside.txt'), 'utf8')).toBe('in\n')
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false)
    expect(existsSync(join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false)
    expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n')
    expect(readFileSync(join(ws, '.hanzo', 'settings.json'), 'utf8')).toBe('{}\n')
    expect(existsSync(privateTmp)).toBe(false)
  })

  it.skipIf(!variant.available)("keeps hanzo-dev's settings and data read-only when the workspace holds them, making a missing one first", async () => {
    const home = box.home
    const configDir = join(home, '.config', 'hanzo')
    const dataDir = join(home, '.local', 'share', 'hanzo')
    mkdirSync(configDir, {recursive: true})
    writeFileSync(join(configDir, 'settings.json'), '{}\n')
    const protectedPaths = [
      {create: true, path: configDir, why: 'settings'},
      {create: true, path: dataDir, why: 'data'},
    ]
    const sandbox = sandboxFor(variant, {}, {protectedPaths}, home)
    const out = await confined(
      sandbox,
      [
        'echo x > .config/hanzo/settings.json 2>/dev/null || echo settings-refused',
        'mv .config .config-old 2>/dev/null || echo config-pinned',
        'echo x > .local/share/hanzo/trust.json 2>/dev/null || echo data-refused',
        'echo x > notes.txt && echo home-ok',
      ].join('\n'),
      home,
    )
    expect(out.split('\n').filter(Boolean)).toEqual(['settings-refused', 'config-pinned', 'data-refused', 'home-ok'])
    expect(readFileSync(join(configDir, 'settings.json'), 'utf8')).toBe('{}\n')
    expect(statSync(dataDir).mode & 0o777).toBe(0o700)
    expect(existsSync(join(dataDir, 'trust.json'))).toBe(false)
  })

  it.skipIf(!variant.available)('writes only the allowed paths in allowlist mode, and still starts in the workspace', async () => {
    mkdirSync(join(ws, 'src'))
    const sandbox = sandboxFor(variant, {allowed_paths: ['src', outside], mode: 'allowlist'})
    const out = await confined(
      sandbox,
      ['echo x > src/a.ts && echo src-ok', `echo x > ${outside}/b && echo outside-ok`, 'echo x > top.txt 2>/dev/null || echo top-refused'].join('\n'),
    )
    expect(out.split('\n').filter(Boolean)).toEqual(['src-ok', 'outside-ok', 'top-refused'])
    expect(existsSync(join(outside, 'b'))).toBe(true)
    expect(existsSync(join(ws, 'top.txt'))).toBe(false)
  })

  describe('the network', () => {
    let server: Server
    let port: number
    beforeAll(async () => {
      server = createServer((socket) => socket.end('hello\n'))
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      port = (server.address() as {port: number}).port
    })
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

    const connect = () => `bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3' 2>/dev/null || echo no-network`

    it.skipIf(!variant.available)('is off when sandbox.network is false', async () => {
      expect((await confined(sandboxFor(variant, {network: false}), connect())).trim()).toBe('no-network')
    })

    it.skipIf(!variant.available)('is on by default', async () => {
      expect((await confined(sandboxFor(variant), connect())).trim()).toBe('hello')
    })
  })
})

describe('choosing the mechanism', () => {
  it('falls back to unshare when bubblewrap fails its trial run here, and says why', async () => {
    const bin = join(box.home, 'bin')
    mkdirSync(bin)
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create a new namespace" >&2\nexit 1\n', {mode: 0o755})
    const env = {...process.env, PATH: `${bin}:${process.env.PATH}`}
    const sandbox = new Sandbox({allowed_paths: [], mode: 'workspace', network: true}, ws, {env})
    const confinement = await sandbox.confinement()
    expect(confinement.bubblewrap).toMatchObject({path: join(bin, 'bwrap'), probed: true, reason: 'bwrap: No permissions to create a new namespace', works: false})
    if (VARIANTS.find((v) => v.mechanism === 'unshare' && v.userNamespace === !isRoot)?.available) expect(confinement.enforcement).toBe('unshare')
  })

  it('falls back to path checks when nothing works, and wraps nothing', async () => {
    const sandbox = new Sandbox({allowed_paths: [], mode: 'workspace', network: true}, ws, {env: {PATH: join(box.home, 'empty')}})
    expect(await sandbox.confinement()).toEqual({
      bubblewrap: {probed: true, works: false},
      enforcement: 'path-checks',
      unshare: {probed: true, works: false},
    })
    expect(await sandbox.commandWrapper()).toBeUndefined()
  })

  it('makes the trial runs once', async () => {
    const sandbox = new Sandbox({allowed_paths: [], mode: 'workspace', network: true}, ws, {env: {PATH: join(box.home, 'empty')}})
    expect(sandbox.confinement()).toBe(sandbox.confinement())
  })
})

describe('mountPoints', () => {
  it('reads field 5 of mountinfo and decodes its octal escapes', () => {
    const mountinfo = [
      '22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw',
      '40 22 0:35 / /mnt/my\\040disk rw,nosuid shared:20 - tmpfs tmpfs rw',
      '41 22 0:36 / /mnt/back\\134slash rw - tmpfs tmpfs rw',
      '',
    ].join('\n')
    expect(mountPoints(mountinfo)).toEqual(['/', '/mnt/my disk', '/mnt/back\\slash'])
  })
})
