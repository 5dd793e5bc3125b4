import {linkSync, mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {useSandboxDirs} from '../../../test/helpers/cli.js'
import type {SandboxConfig} from '../src/isolation.js'
import {Sandbox} from '../src/sandbox.js'

// Sandbox.checkPath on real trees: `ws` is the workspace, `outside` a sibling it must not reach,
// `ws_evil` a sibling whose name starts with the workspace's.
const dirs = useSandboxDirs('hanzo-check-path-', 'ws', 'outside', 'ws_evil')

const workspace = (extra: Partial<SandboxConfig> = {}) =>
  new Sandbox({allowed_paths: [], mode: 'workspace', network: true, ...extra}, dirs.ws, {
    // As when the workspace is the home directory, which holds hanzo-dev's settings.
    protectedPaths: [{path: join(dirs.ws, '.config', 'hanzo'), why: "hanzo-dev's settings are there"}],
  })

describe('Sandbox.checkPath in workspace mode', () => {
  it('allows paths inside the workspace, relative or absolute, existing or not, and gives the canonical path', async () => {
    writeFileSync(join(dirs.ws, 'a.txt'), 'a')
    const sandbox = workspace()
    expect(await sandbox.checkPath('a.txt')).toEqual({allowed: true, path: join(dirs.ws, 'a.txt')})
    expect(await sandbox.checkPath(join(dirs.ws, 'new', 'deep.txt'), {write: true})).toEqual({
      allowed: true,
      path: join(dirs.ws, 'new', 'deep.txt'),
    })
    expect(await sandbox.checkPath('.')).toEqual({allowed: true, path: dirs.ws})
    expect(await sandbox.checkPath('sub/../a.txt', {cwd: join(dirs.ws, 'sub')})).toEqual({
      allowed: true,
      path: join(dirs.ws, 'sub', 'a.txt'),
    })
  })

  it.each([
    ['a .. escape', () => '../outside/x.txt'],
    ['a .. escape that passes through the workspace', () => 'src/../../outside'],
    ['an absolute path outside', () => join(dirs.outside, 'x.txt')],
    ['a sibling whose name has the workspace as prefix', () => join(dirs.ws_evil, 'x.txt')],
    ['a sibling prefix written relatively', () => '../ws_evil'],
  ])('refuses %s, naming the path and the workspace', async (_name, path) => {
    const verdict = await workspace().checkPath(path())
    expect(verdict.allowed).toBe(false)
    if (!verdict.allowed)
      expect(verdict.reason).toMatch(new RegExp(`^${escape(path())} .*is outside the workspace ${escape(dirs.ws)}$`))
  })

  it('follows symlinks: to outside, dangling to outside, chained, and inside', async () => {
    symlinkSync(dirs.outside, join(dirs.ws, 'out'))
    symlinkSync(join(dirs.outside, 'not-yet.txt'), join(dirs.ws, 'dangling'))
    symlinkSync(join(dirs.ws, 'hop2'), join(dirs.ws, 'hop1'))
    symlinkSync('dangling', join(dirs.ws, 'hop2'))
    mkdirSync(join(dirs.ws, 'real'))
    symlinkSync('real', join(dirs.ws, 'alias'))
    const sandbox = workspace()

    expect(await sandbox.checkPath('out/secret.txt')).toEqual({
      allowed: false,
      path: join(dirs.outside, 'secret.txt'),
      reason: `out/secret.txt (${join(dirs.outside, 'secret.txt')}) is outside the workspace ${dirs.ws}`,
    })
    expect(await sandbox.checkPath('dangling', {write: true})).toMatchObject({
      allowed: false,
      path: join(dirs.outside, 'not-yet.txt'),
    })
    expect(await sandbox.checkPath('hop1', {write: true})).toMatchObject({
      allowed: false,
      path: join(dirs.outside, 'not-yet.txt'),
    })
    expect(await sandbox.checkPath('alias/x.txt', {write: true})).toEqual({
      allowed: true,
      path: join(dirs.ws, 'real', 'x.txt'),
    })
  })

  it('refuses a symlink loop with the reason instead of hanging', async () => {
    symlinkSync('loop-b', join(dirs.ws, 'loop-a'))
    symlinkSync('loop-a', join(dirs.ws, 'loop-b'))
    const verdict = await workspace().checkPath('loop-a/x', {write: true})
    expect(verdict).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^loop-a\/x cannot be resolved: .*(ELOOP|too many levels)/),
    })
  })

  it('refuses to write a file with more than one hard link, and reads it', async () => {
    writeFileSync(join(dirs.outside, 'shared.txt'), 'outside')
    linkSync(join(dirs.outside, 'shared.txt'), join(dirs.ws, 'shared.txt'))
    const sandbox = workspace()
    expect(await sandbox.checkPath('shared.txt', {write: true})).toEqual({
      allowed: false,
      path: join(dirs.ws, 'shared.txt'),
      reason: `shared.txt (${join(dirs.ws, 'shared.txt')}) has 2 hard links: the same file has other names, maybe outside the workspace, so it is not written`,
    })
    expect(await sandbox.checkPath('shared.txt')).toMatchObject({allowed: true})
  })

  it('refuses writes to protected paths (git hooks and config, .hanzo, the settings dir) and allows reading them', async () => {
    mkdirSync(join(dirs.ws, '.git', 'hooks'), {recursive: true})
    const sandbox = workspace()
    for (const [path, why] of [
      ['.git/hooks/pre-commit', 'git runs what is there'],
      ['.git/config', 'git config can name programs'],
      ['.hanzo/settings.json', "it holds the project's hanzo-dev settings"],
      ['.config/hanzo/credentials.json', "hanzo-dev's settings are there"],
    ]) {
      expect(await sandbox.checkPath(path, {write: true})).toMatchObject({
        allowed: false,
        reason: expect.stringContaining(`is read-only in the sandbox: ${why}`),
      })
      expect(await sandbox.checkPath(path)).toMatchObject({allowed: true})
    }

    expect(await sandbox.checkPath('.git/HEAD', {write: true})).toMatchObject({allowed: true})
  })

  it("refuses writes to every git file that redirects git: commondir, config.worktree, submodules' and worktrees' git files, a .git file", async () => {
    const sandbox = workspace()
    for (const path of [
      '.git/commondir',
      '.git/config.worktree',
      '.git/modules/lib/config',
      '.git/modules/lib/hooks/post-checkout',
      '.git/worktrees/wt/commondir',
    ]) {
      expect(await sandbox.checkPath(path, {write: true}), path).toMatchObject({
        allowed: false,
        reason: expect.stringContaining('is read-only in the sandbox'),
      })
    }

    const worktree = join(dirs.ws, 'wt')
    mkdirSync(worktree)
    writeFileSync(join(worktree, '.git'), 'gitdir: /elsewhere\n')
    const linked = new Sandbox({allowed_paths: [], mode: 'workspace', network: true}, worktree)
    expect(await linked.checkPath('.git', {write: true})).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('it names the git directory'),
    })
    expect(await linked.checkPath('src/a.ts', {write: true})).toMatchObject({allowed: true})
  })

  it("refuses reading and writing a masked path (hanzo-dev's settings, credentials and data)", async () => {
    const configDir = join(dirs.ws, '.config', 'hanzo')
    const sandbox = new Sandbox({allowed_paths: [], mode: 'workspace', network: true}, dirs.ws, {
      protectedPaths: [{mask: true, path: configDir, why: 'the credentials are there'}],
    })
    for (const write of [false, true]) {
      expect(await sandbox.checkPath('.config/hanzo/credentials.json', {write})).toMatchObject({
        allowed: false,
        reason: `.config/hanzo/credentials.json (${join(configDir, 'credentials.json')}) is hidden in the sandbox: the credentials are there`,
      })
    }
  })

  it('refuses a NUL byte', async () => {
    expect(await workspace().checkPath('a\0b')).toMatchObject({allowed: false, reason: 'the path contains a NUL byte'})
  })
})

describe('Sandbox.checkPath in allowlist mode', () => {
  const allowlist = (allowed: string[]) =>
    new Sandbox({allowed_paths: allowed, mode: 'allowlist', network: true}, dirs.ws)

  it('writes only inside the allowed paths (relative to the workspace or absolute) and reads there and in the workspace', async () => {
    symlinkSync(dirs.outside, join(dirs.ws, 'data-link'))
    const sandbox = allowlist(['src', 'data-link'])
    expect(await sandbox.checkPath('src/a.ts', {write: true})).toEqual({
      allowed: true,
      path: join(dirs.ws, 'src', 'a.ts'),
    })
    // Allowed through the link: the allowed path is canonicalized the same way.
    expect(await sandbox.checkPath(join(dirs.outside, 'x'), {write: true})).toEqual({
      allowed: true,
      path: join(dirs.outside, 'x'),
    })
    expect(await sandbox.checkPath('README.md')).toMatchObject({allowed: true})
    expect(await sandbox.checkPath('README.md', {write: true})).toEqual({
      allowed: false,
      path: join(dirs.ws, 'README.md'),
      reason: `README.md (${join(dirs.ws, 'README.md')}) is outside the allowed paths (sandbox.allowed_paths: ${join(dirs.ws, 'src')}, ${dirs.outside})`,
    })
    expect(await sandbox.checkPath('src_evil/a.ts', {write: true})).toMatchObject({allowed: false})
    expect(await sandbox.checkPath(join(dirs.ws_evil, 'x'))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining(`is outside the workspace ${dirs.ws} and the allowed paths`),
    })
  })

  it('writes nowhere with no allowed paths', async () => {
    expect(await allowlist([]).checkPath('a.txt', {write: true})).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('sandbox.allowed_paths: none'),
    })
  })
})

describe('Sandbox.checkPath in off mode', () => {
  it('allows everything', async () => {
    const sandbox = new Sandbox({allowed_paths: [], mode: 'off', network: true}, dirs.ws)
    expect(await sandbox.checkPath('../outside/x', {write: true})).toEqual({
      allowed: true,
      path: join(dirs.outside, 'x'),
    })
  })
})

function escape(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
