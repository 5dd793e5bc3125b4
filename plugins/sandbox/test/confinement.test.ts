import {execFileSync, spawn} from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
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
  {
    available: works(['unshare', '--user', '--map-root-user', '--mount', 'true']),
    mechanism: 'unshare',
    name: 'unshare with a user namespace',
    userNamespace: true,
  },
  {
    available: isRoot && works(['unshare', '--mount', 'true']),
    mechanism: 'unshare',
    name: 'unshare as root',
    userNamespace: false,
  },
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

function sandboxFor(
  variant: (typeof VARIANTS)[number],
  config: Partial<SandboxConfig> = {},
  options: SandboxOptions = {},
  workspace = ws,
): Sandbox {
  const settings: SandboxConfig = {allowed_paths: [], mode: 'workspace', network: true, ...config}
  return new Sandbox(settings, workspace, {
    mechanisms: [variant.mechanism],
    userNamespace: variant.userNamespace,
    ...options,
  })
}

/** Runs `script` by sh the way exec would, wrapped by the sandbox's mechanism, and what the sandbox removed after it. */
async function confinedRun(sandbox: Sandbox, script: string, cwd = ws): Promise<{stdout: string; removed: string[]}> {
  const command = await sandbox.confineCommand()
  expect(command, 'a mechanism is in force').toBeDefined()
  const [file, ...args] = command!.wrap(['/bin/sh', '-c', script], cwd)
  const result = await runCommand(file, args, {cwd, env: process.env, timeoutMs: 30_000})
  expect(result.stderr).not.toMatch(/^(bwrap|unshare|mount|setpriv):/m)
  return {removed: await command!.finish(), stdout: result.stdout}
}

async function confined(sandbox: Sandbox, script: string, cwd = ws): Promise<string> {
  return (await confinedRun(sandbox, script, cwd)).stdout
}

const lines = (out: string) => out.split('\n').filter(Boolean)
const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    'git',
    ['-c', 'user.name=T', '-c', 'user.email=t@example.com', '-c', 'protocol.file.allow=always', ...args],
    {cwd, stdio: 'pipe'},
  )

describe.each(VARIANTS)('commands under $name', (variant) => {
  it.skipIf(!variant.available)('passes its trial run and is the one in force', async () => {
    const confinement = await sandboxFor(variant).confinement()
    expect(confinement.enforcement).toBe(variant.mechanism)
  })

  it.skipIf(!variant.available)(
    'write inside the workspace only: / is read-only, git hooks and config and .hanzo too, /tmp is private',
    async () => {
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
    },
  )

  it.skipIf(!variant.available)(
    "keeps hanzo-dev's settings and data read-only when the workspace holds them, making a missing one first",
    async () => {
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
    },
  )

  it.skipIf(!variant.available)(
    'writes only the allowed paths in allowlist mode, and still starts in the workspace',
    async () => {
      mkdirSync(join(ws, 'src'))
      const sandbox = sandboxFor(variant, {allowed_paths: ['src', outside], mode: 'allowlist'})
      const out = await confined(
        sandbox,
        [
          'echo x > src/a.ts && echo src-ok',
          `echo x > ${outside}/b && echo outside-ok`,
          'echo x > top.txt 2>/dev/null || echo top-refused',
        ].join('\n'),
      )
      expect(out.split('\n').filter(Boolean)).toEqual(['src-ok', 'outside-ok', 'top-refused'])
      expect(existsSync(join(outside, 'b'))).toBe(true)
      expect(existsSync(join(ws, 'top.txt'))).toBe(false)
    },
  )

  describe('what configures git and hanzo-dev', () => {
    const repo = (dir: string) => {
      mkdirSync(dir, {recursive: true})
      git(dir, 'init', '-q')
      git(dir, 'commit', '-q', '--allow-empty', '-m', 'init')
    }

    beforeEach(() => {
      rmSync(join(ws, '.git'), {force: true, recursive: true})
      repo(ws)
    })

    it.skipIf(!variant.available)(
      "keeps git's config, what it includes, its hooks and commondir from commands, and git add, commit and checkout -b working",
      async () => {
        rmSync(join(ws, '.git', 'hooks'), {recursive: true})
        writeFileSync(join(ws, 'team.gitconfig'), '[user]\n')
        mkdirSync(join(ws, '.githooks'))
        git(ws, 'config', 'include.path', '../team.gitconfig')
        git(ws, 'config', 'includeIf.onbranch:topic.path', '../later.gitconfig')
        git(ws, 'config', 'core.hooksPath', '.githooks')
        const config = readFileSync(join(ws, '.git', 'config'), 'utf8')
        const {removed, stdout} = await confinedRun(
          sandboxFor(variant),
          [
            'echo "[core] fsmonitor = touch pwned" >> .git/config 2>/dev/null || echo config-refused',
            'git config core.fsmonitor "touch pwned" 2>/dev/null || echo git-config-refused',
            'echo "[core] fsmonitor = touch pwned" >> team.gitconfig 2>/dev/null || echo include-refused',
            'echo "touch pwned" > .githooks/pre-commit 2>/dev/null || echo hooks-path-refused',
            'echo "touch pwned" > .git/hooks/pre-commit 2>/dev/null || echo hooks-refused',
            'echo "[core] fsmonitor = touch pwned" > later.gitconfig && echo include-target-written',
            'echo a > a.txt && git add a.txt && git -c user.name=T -c user.email=t@example.com commit -qm a && echo committed',
            'git checkout -qb topic && echo branched',
            'echo ../../elsewhere > .git/commondir && echo commondir-written',
          ].join('\n'),
        )
        expect(lines(stdout)).toEqual([
          'config-refused',
          'git-config-refused',
          'include-refused',
          'hooks-path-refused',
          'hooks-refused',
          'include-target-written',
          'committed',
          'branched',
          'commondir-written',
        ])
        expect(removed.sort()).toEqual(['.git/commondir', 'later.gitconfig'])
        expect(existsSync(join(ws, '.git', 'commondir'))).toBe(false)
        expect(existsSync(join(ws, 'later.gitconfig'))).toBe(false)
        expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe(config)
        expect(readFileSync(join(ws, 'team.gitconfig'), 'utf8')).toBe('[user]\n')
        expect(readdirSync(join(ws, '.git', 'hooks'))).toEqual([])
        expect(readdirSync(join(ws, '.githooks'))).toEqual([])
        expect(git(ws, 'log', '--format=%s', '-1', 'topic').toString().trim()).toBe('a')
      },
    )

    it.skipIf(!variant.available)("keeps submodules' and nested repositories' git files from commands", async () => {
      repo(join(box.home, 'lib'))
      git(ws, 'submodule', 'add', '-q', join(box.home, 'lib'), 'lib')
      repo(join(ws, 'vendor', 'x'))
      const dotGit = readFileSync(join(ws, 'lib', '.git'), 'utf8')
      const out = await confined(
        sandboxFor(variant),
        [
          'echo "gitdir: /elsewhere" > lib/.git 2>/dev/null || echo submodule-link-refused',
          'echo x >> .git/modules/lib/config 2>/dev/null || echo submodule-config-refused',
          'echo x > .git/modules/lib/hooks/post-checkout 2>/dev/null || echo submodule-hooks-refused',
          'echo x >> vendor/x/.git/config 2>/dev/null || echo nested-config-refused',
          'echo x > vendor/x/.git/hooks/pre-commit 2>/dev/null || echo nested-hooks-refused',
          'cd lib && echo l > l.txt && git add l.txt && git -c user.name=T -c user.email=t@example.com commit -qm l && echo submodule-committed',
        ].join('\n'),
      )
      expect(lines(out)).toEqual([
        'submodule-link-refused',
        'submodule-config-refused',
        'submodule-hooks-refused',
        'nested-config-refused',
        'nested-hooks-refused',
        'submodule-committed',
      ])
      expect(readFileSync(join(ws, 'lib', '.git'), 'utf8')).toBe(dotGit)
      expect(existsSync(join(ws, '.git', 'modules', 'lib', 'hooks', 'post-checkout'))).toBe(false)
    })

    it.skipIf(!variant.available)(
      'lets a linked worktree commit, with its .git file and the git files of the main repository kept from commands',
      async () => {
        const main = join(outside, 'main')
        const worktree = join(outside, 'wt')
        repo(main)
        git(main, 'worktree', 'add', '-q', worktree, '-b', 'wt')
        const config = readFileSync(join(main, '.git', 'config'), 'utf8')
        const out = await confined(
          sandboxFor(variant, {}, {}, worktree),
          [
            'echo w > w.txt && git add w.txt && git -c user.name=T -c user.email=t@example.com commit -qm w && echo committed',
            'git checkout -qb wt2 && echo branched',
            'echo "gitdir: /elsewhere" > .git 2>/dev/null || echo dotgit-refused',
            'echo x >> ../main/.git/config 2>/dev/null || echo main-config-refused',
            'echo x > ../main/.git/worktrees/wt/commondir 2>/dev/null || echo commondir-refused',
            'echo x > ../main/.git/hooks/pre-commit 2>/dev/null || echo main-hooks-refused',
            'echo x > ../main/notes.txt 2>/dev/null || echo main-tree-refused',
          ].join('\n'),
          worktree,
        )
        expect(lines(out)).toEqual([
          'committed',
          'branched',
          'dotgit-refused',
          'main-config-refused',
          'commondir-refused',
          'main-hooks-refused',
          'main-tree-refused',
        ])
        expect(git(main, 'log', '--format=%s', '-1', 'wt2').toString().trim()).toBe('w')
        expect(readFileSync(join(main, '.git', 'config'), 'utf8')).toBe(config)
        expect(readFileSync(join(worktree, '.git'), 'utf8')).toMatch(/^gitdir: .*worktrees\/wt/)
      },
    )

    it.skipIf(!variant.available)(
      'keeps every .hanzo from commands, making a missing one at the root first and removing one a command makes',
      async () => {
        rmSync(join(ws, '.hanzo'), {force: true, recursive: true})
        mkdirSync(join(ws, 'pkg', '.hanzo'), {recursive: true})
        writeFileSync(join(ws, 'pkg', '.hanzo', 'settings.json'), '{}\n')
        mkdirSync(join(ws, 'conf'))
        mkdirSync(join(ws, 'app'))
        symlinkSync('../conf', join(ws, 'app', '.hanzo'))
        const {removed, stdout} = await confinedRun(
          sandboxFor(variant),
          [
            'echo "{}" > .hanzo/settings.json 2>/dev/null || echo root-refused',
            'echo x > pkg/.hanzo/settings.json 2>/dev/null || echo nested-refused',
            'echo x > conf/settings.json 2>/dev/null || echo linked-refused',
            'mkdir -p deep/er/.hanzo && echo "{}" > deep/er/.hanzo/settings.local.json && echo new-made',
            'mkdir -p src && echo ok > src/a.ts && echo src-ok',
          ].join('\n'),
        )
        expect(lines(stdout)).toEqual(['root-refused', 'nested-refused', 'linked-refused', 'new-made', 'src-ok'])
        expect(removed).toEqual(['deep/er/.hanzo'])
        expect(existsSync(join(ws, 'deep', 'er', '.hanzo'))).toBe(false)
        expect(readdirSync(join(ws, '.hanzo'))).toEqual([])
        expect(readFileSync(join(ws, 'pkg', '.hanzo', 'settings.json'), 'utf8')).toBe('{}\n')
        expect(readdirSync(join(ws, 'conf'))).toEqual([])
        expect(readFileSync(join(ws, 'src', 'a.ts'), 'utf8')).toBe('ok\n')
      },
    )
  })

  it.skipIf(!variant.available)(
    "hides hanzo-dev's settings, credentials and trust store from commands wherever they are",
    async () => {
      const configDir = join(outside, 'config', 'hanzo')
      const dataDir = join(outside, 'data', 'hanzo-dev')
      mkdirSync(configDir, {recursive: true})
      mkdirSync(dataDir, {recursive: true})
      writeFileSync(join(configDir, 'credentials.json'), '{"api_key":"sk-test-secret"}\n')
      writeFileSync(join(configDir, 'settings.json'), '{}\n')
      writeFileSync(join(dataDir, 'trusted-projects.json'), '{}\n')
      const protectedPaths = [
        {mask: true, path: configDir, why: 'settings'},
        {mask: true, path: dataDir, why: 'data'},
      ]
      const out = await confined(
        sandboxFor(variant, {}, {protectedPaths}),
        [
          `cat ${configDir}/credentials.json 2>/dev/null || echo credentials-hidden`,
          `ls -A ${configDir} && echo listed-empty`,
          `cat ${dataDir}/trusted-projects.json 2>/dev/null || echo trust-hidden`,
          `echo x > ${configDir}/settings.json 2>/dev/null || echo settings-refused`,
        ].join('\n'),
      )
      expect(lines(out)).toEqual(['credentials-hidden', 'listed-empty', 'trust-hidden', 'settings-refused'])
      expect(readFileSync(join(configDir, 'settings.json'), 'utf8')).toBe('{}\n')
    },
  )

  it.skipIf(!variant.available)(
    "shows commands no process but their own, so no other process's environment",
    async () => {
      const mark = `hanzo-outside-${process.pid}`
      const outsider = spawn('sleep', ['60'], {env: {...process.env, HANZO_OUTSIDE_MARK: mark}, stdio: 'ignore'})
      const count = `cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' | grep -c ${mark}; true`
      try {
        // Unconfined, the same user reads it.
        await expect.poll(() => execFileSync('/bin/sh', ['-c', count]).toString().trim()).not.toBe('0')
        expect((await confined(sandboxFor(variant), count)).trim()).toBe('0')
      } finally {
        outsider.kill()
      }
    },
  )

  it.skipIf(!variant.available)(
    "ignores the project's allowed paths that lead out of the workspace, through a symlink too",
    async () => {
      symlinkSync(outside, join(ws, 'out'))
      mkdirSync(join(ws, 'src'))
      const sandbox = sandboxFor(
        variant,
        {allowed_paths: ['out', 'src'], mode: 'allowlist'},
        {projectAllowedPaths: true},
      )
      const why = `it leads out of the workspace, to ${outside}, and the project's settings may only allow paths inside it`
      expect((await sandbox.roots()).ignored).toEqual([{path: 'out', why}])
      const out = await confined(
        sandbox,
        [`echo x > out/escaped.txt 2>/dev/null || echo out-refused`, 'echo x > src/a.ts && echo src-ok'].join('\n'),
      )
      expect(lines(out)).toEqual(['out-refused', 'src-ok'])
      expect(existsSync(join(outside, 'escaped.txt'))).toBe(false)
    },
  )

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
    writeFileSync(
      join(bin, 'bwrap'),
      '#!/bin/sh\necho "bwrap: No permissions to create a new namespace" >&2\nexit 1\n',
      {mode: 0o755},
    )
    const env = {...process.env, PATH: `${bin}:${process.env.PATH}`}
    const sandbox = new Sandbox({allowed_paths: [], mode: 'workspace', network: true}, ws, {env})
    const confinement = await sandbox.confinement()
    expect(confinement.bubblewrap).toMatchObject({
      path: join(bin, 'bwrap'),
      probed: true,
      reason: 'bwrap: No permissions to create a new namespace',
      works: false,
    })
    if (VARIANTS.find((v) => v.mechanism === 'unshare' && v.userNamespace === !isRoot)?.available)
      expect(confinement.enforcement).toBe('unshare')
  })

  it('falls back to path checks when nothing works, and wraps nothing', async () => {
    const sandbox = new Sandbox({allowed_paths: [], mode: 'workspace', network: true}, ws, {
      env: {PATH: join(box.home, 'empty')},
    })
    expect(await sandbox.confinement()).toEqual({
      bubblewrap: {probed: true, works: false},
      enforcement: 'path-checks',
      unshare: {probed: true, works: false},
    })
    expect(await sandbox.confineCommand()).toBeUndefined()
  })

  it('makes the trial runs once', async () => {
    const sandbox = new Sandbox({allowed_paths: [], mode: 'workspace', network: true}, ws, {
      env: {PATH: join(box.home, 'empty')},
    })
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
