import {existsSync, linkSync, mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox, unwrapped} from '../../../test/helpers/cli.js'
import {lspChecks} from '../src/doctor-checks.js'
import {LANGUAGES} from '../src/languages.js'
import {lspTools} from '../src/lsp-tools.js'
import {projectOwnership} from '../src/project-programs.js'
import {chooseServer} from '../src/server-lookup.js'
import {callTool, makeManager, writeFiles} from './lsp-fixture.js'

const ALLOW = 'to let it run: hanzo-dev config set lsp.project_servers true'
const PROXY_REASON = 'it is a rustup proxy, which runs the version a project file names'
/** What rustup does with `path = ...` in a rust-toolchain.toml: runs that toolchain's program of the name it was called by. */
const FAKE_RUSTUP = `#!/bin/sh
dir=$(sed -n 's/^path *= *"\\(.*\\)"/\\1/p' rust-toolchain.toml 2>/dev/null)
[ -n "$dir" ] && exec "$dir/bin/$(basename "$0")" "$@"
echo "rustup: no toolchain" >&2
exit 1
`

/** An executable file at `path`, its directory made. */
function script(path: string, text: string): string {
  mkdirSync(dirname(path), {recursive: true})
  writeFileSync(path, text, {mode: 0o755})
  return path
}

/**
 * [security-3] item 3 (a): rust-analyzer on PATH is rustup's proxy, and an untrusted project's
 * rust-toolchain.toml names its own toolchain (`path = ...`), whose rust-analyzer writes outside
 * the workspace. Neither the model's lsp_diagnostics nor `hanzo-dev lsp diagnostics` may run it
 * until the user allows the project's own servers; both say why and the command that allows it.
 */
describe('a server behind a toolchain proxy, in a project with a toolchain file', () => {
  let box: Sandbox
  let project: string
  let marker: string
  let env: Record<string, string>
  const userSettings = (settings: object) =>
    writeFiles(join(box.env.XDG_CONFIG_HOME, 'hanzo'), {'settings.json': JSON.stringify(settings)})

  beforeAll(() => {
    box = makeSandbox('hanzo-lsp-proxy-')
    project = join(box.home, 'project')
    marker = join(box.home, 'outside', 'marker')
    mkdirSync(join(box.home, 'outside'))
    const bin = join(box.home, '.cargo', 'bin')
    script(join(bin, 'rustup'), FAKE_RUSTUP)
    symlinkSync('rustup', join(bin, 'rust-analyzer'))
    writeFiles(project, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'Cargo.toml': '[package]\nname = "app"\nversion = "0.1.0"\n',
      'rust-toolchain.toml': `[toolchain]\npath = "${join(project, 'toolchain')}"\n`,
      'src/main.rs': 'fn main() {}\n',
    })
    script(join(project, 'toolchain', 'bin', 'rust-analyzer'), `#!/bin/sh\ntouch ${marker}\n`)
    env = {...box.env, PATH: `${bin}:/usr/bin:/bin`}
  })
  afterAll(() => box.cleanup())

  it("the model's lsp_diagnostics: held back, said once with the reason and the command; nothing ran", async () => {
    const {manager, reports} = makeManager(project, {env, lsp: {project_servers: false}})
    try {
      const result = await callTool(lspTools(manager), 'lsp_diagnostics', {path: 'src/main.rs'}, project)
      const why = `Rust: rust-analyzer (${join(box.home, '.cargo', 'bin', 'rust-analyzer')}) is held back as the project's own program: ${PROXY_REASON} (${ALLOW})`
      expect(result).toMatchObject({error: why, is_error: true})
      expect(reports).toEqual([`${why}; the session goes on without Rust diagnostics`])
      expect(existsSync(marker)).toBe(false)
    } finally {
      await manager.shutdown()
    }
  })

  it('hanzo-dev lsp diagnostics, lsp servers: held back with the reason and the command; with consent it runs', async () => {
    userSettings({})
    const refused = await runCli(['lsp', 'diagnostics', 'src/main.rs'], {cwd: project, env})
    expect(refused.exitCode).toBe(3)
    expect(unwrapped(refused.stderr)).toContain(`is held back as the project's own program: ${PROXY_REASON} (${ALLOW})`)
    const servers = await runCli(['lsp', 'servers', '--json'], {cwd: project, env})
    expect(JSON.parse(servers.stdout).languages).toEqual([
      {
        id: 'rust',
        install: ALLOW,
        name: 'Rust',
        problem: expect.stringContaining(`is held back as the project's own program: ${PROXY_REASON}`),
        server: null,
      },
    ])
    expect(unwrapped((await runCli(['lsp', 'servers'], {cwd: project, env})).stdout)).toContain(
      `! Rust: rust-analyzer (${join(box.home, '.cargo', 'bin', 'rust-analyzer')}) is held back`,
    )
    expect(existsSync(marker)).toBe(false)

    userSettings({lsp: {project_servers: true}})
    const allowed = await runCli(['lsp', 'diagnostics', 'src/main.rs'], {cwd: project, env})
    expect(allowed.exitCode).toBe(3)
    expect(unwrapped(allowed.stderr)).toContain('Rust language server rust-analyzer did not start')
    expect(existsSync(marker)).toBe(true)
  })

  it('hanzo-dev doctor (its lsp checks): the reason and the command', async () => {
    const checks = await lspChecks({cwd: project, env, projectRoot: project, settings: {}})
    expect(checks.find((c) => c.id === 'lsp.language.rust')).toMatchObject({
      detail: expect.stringContaining(PROXY_REASON),
      hint: ALLOW,
      status: 'warn',
    })
    expect(checks.find((c) => c.id === 'lsp.servers')?.detail).toContain("held back: the project's own")
  })
})

/** Which servers the project can choose (project-programs.ts), each rule on its own. */
describe('the project chooses the server', () => {
  let box: Sandbox
  let project: string
  let own: (path: string) => Promise<string | undefined>
  beforeAll(() => {
    box = makeSandbox('hanzo-lsp-own-')
    project = join(box.home, 'project')
    mkdirSync(project)
    own = projectOwnership(project)
  })
  afterAll(() => box.cleanup())

  const server = (dir: string, name: string, text = '#!/bin/sh\nexit 0\n') => script(join(box.home, dir, name), text)

  it('inside the project (a relative PATH entry too), or a link into it', async () => {
    const inside = script(join(project, 'bin', 'gopls'), '#!/bin/sh\n')
    expect(await own(inside)).toBe('it is inside the project')
    symlinkSync(inside, join(box.home, 'gopls-link'))
    expect(await own(join(box.home, 'gopls-link'))).toBe('it is inside the project')
    const go = LANGUAGES.find((l) => l.id === 'go')!
    expect(await chooseServer(go, {cwd: project, env: {PATH: 'bin'}, projectServers: false})).toMatchObject({
      heldBack: [{path: inside}],
      use: undefined,
    })
    expect(await chooseServer(go, {cwd: project, env: {PATH: 'bin'}, projectServers: true})).toMatchObject({
      use: {own: 'it is inside the project', path: inside},
    })
  })

  it('a proxy: a hard link of rustup, a shim, a script that runs a version manager', async () => {
    const rustup = server('hard', 'rustup')
    linkSync(rustup, join(box.home, 'hard', 'rust-analyzer'))
    expect(await own(join(box.home, 'hard', 'rust-analyzer'))).toBe(PROXY_REASON)
    expect(await own(server('.pyenv/shims', 'pylsp'))).toBe(
      `it is a version manager's shim (${join(box.home, '.pyenv', 'shims')}), which runs the version a project file names`,
    )
    const pyenvShim =
      '#!/usr/bin/env bash\nset -e\nexport PYENV_ROOT="/home/u/.pyenv"\nexec "/home/u/.pyenv/libexec/pyenv" exec "$program" "$@"\n'
    expect(await own(server('bin', 'pyright-langserver', pyenvShim))).toBe(
      'it is a script that runs pyenv, which runs the version a project file names',
    )
  })

  it('not a proxy: a fixed interpreter under a version manager, a comment naming one, a plain program', async () => {
    expect(
      await own(
        server(
          'bin',
          'pylsp',
          '#!/home/u/.pyenv/versions/3.12.1/bin/python3.12\n# installed with pyenv\nfrom pylsp.__main__ import main\n',
        ),
      ),
    ).toBeUndefined()
    expect(await own(server('bin', 'clangd'))).toBeUndefined()
  })

  it('any server, when the project root has a toolchain file', async () => {
    const clangd = server('bin', 'clangd')
    writeFileSync(join(project, '.tool-versions'), 'python path:/tmp/evil\n')
    expect(await projectOwnership(project)(clangd)).toBe(
      'the project has .tool-versions, which version managers read to choose the programs that run',
    )
  })
})
