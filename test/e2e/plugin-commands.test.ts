import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox, unwrapped} from '../helpers/cli.js'

// The plugins' own commands, through the built CLI: each one's text and --json output, that
// listing MCP servers and hooks never shows a secret nor runs anything, and that a malformed
// settings file is one clear error (exit 1, no stack trace).

const STACK = /\n\s+at .*(\.js|\.ts):\d+|node:internal/

let box: Sandbox
let project: string

beforeEach(() => {
  box = makeSandbox('hanzo-plugin-commands-')
  project = join(box.home, 'project')
  mkdirSync(join(project, '.git'), {recursive: true})
})
afterEach(() => box.cleanup())

function writeUserSettings(settings: unknown): void {
  const dir = join(box.env.XDG_CONFIG_HOME, 'hanzo')
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2))
}

function writeProjectSettings(settings: unknown): void {
  mkdirSync(join(project, '.hanzo'), {recursive: true})
  writeFileSync(
    join(project, '.hanzo', 'settings.json'),
    typeof settings === 'string' ? settings : JSON.stringify(settings, null, 2),
  )
}

const run = (args: string[]) => runCli(args, {cwd: project, env: box.env})

/** Project hooks, MCP servers and allow rules apply only in a project the user trusts. */
async function trustProject(): Promise<void> {
  expect(await run(['trust', '--yes'])).toMatchObject({exitCode: 0})
}

/** A program that leaves a mark when anything starts it. */
function markerProgram(name: string): {path: string; mark: string} {
  const bin = join(box.home, 'bin')
  mkdirSync(bin, {recursive: true})
  const path = join(bin, name)
  const mark = join(box.home, `ran-${name}`)
  writeFileSync(path, `#!/bin/sh\ntouch '${mark}'\n`, {mode: 0o755})
  return {mark, path}
}

describe('hanzo-dev --help', () => {
  it('lists the plugin topics', async () => {
    const {exitCode, stdout} = await run(['--help'])
    expect(exitCode).toBe(0)
    for (const topic of ['lsp', 'sandbox', 'mcp', 'hooks'])
      expect(stdout).toMatch(new RegExp(`^ {2}${topic} +\\S`, 'm'))
  })

  it('shows each command with its examples', async () => {
    for (const command of [
      ['lsp', 'servers'],
      ['sandbox', 'status'],
      ['mcp', 'list'],
      ['hooks', 'list'],
    ]) {
      const {exitCode, stdout} = await run([...command, '--help'])
      expect(exitCode).toBe(0)
      expect(stdout).toContain(`$ hanzo-dev ${command.join(' ')}`)
      expect(stdout).toContain('--json')
    }
  })
})

describe('hanzo-dev lsp servers', () => {
  it('lists every known server and the project languages without a server, with the install hint', async () => {
    writeFileSync(join(project, 'Cargo.toml'), '[package]\nname = "x"\n')
    // An empty PATH: no server is found, whatever this machine has.
    const env = {...box.env, PATH: join(box.home, 'empty')}
    const text = await runCli(['lsp', 'servers'], {cwd: project, env})
    expect(text.exitCode).toBe(0)
    expect(text.stdout).toMatch(/^Language servers\n/)
    expect(text.stdout).toMatch(/- typescript-language-server +typescript +not found/)
    expect(text.stdout).toMatch(/- rust-analyzer +rust +not found/)
    expect(text.stdout).toContain(`Project languages (${project})`)
    expect(text.stdout).toContain('! Rust: rust-analyzer not found on PATH or in node_modules/.bin')
    expect(text.stdout).toContain('→ rustup component add rust-analyzer')
    expect(text.stdout).not.toContain('\u001B[')

    const json = await runCli(['lsp', 'servers', '--json'], {cwd: project, env})
    expect(json.exitCode).toBe(0)
    const result = JSON.parse(json.stdout)
    expect(result.projectRoot).toBe(project)
    expect(result.servers.map((s: {command: string}) => s.command)).toContain('pyright-langserver')
    expect(result.servers.every((s: {path: unknown}) => s.path === null)).toBe(true)
    expect(result.languages).toEqual([
      {
        id: 'rust',
        install: 'rustup component add rust-analyzer',
        name: 'Rust',
        problem: 'rust-analyzer not found on PATH or in node_modules/.bin',
        server: null,
      },
    ])
  })

  it('shows the path of a server on PATH, and ✗ with why when it does not start', async () => {
    writeFileSync(join(project, 'go.mod'), 'module x\n')
    // On PATH, but it exits at once without a word of LSP.
    const path = join(box.home, 'bin', 'gopls')
    mkdirSync(join(box.home, 'bin'), {recursive: true})
    writeFileSync(path, '#!/bin/sh\necho "gopls: no go command" >&2\nexit 1\n', {mode: 0o755})
    const failure = `${path} exited (code 1): gopls: no go command`
    const env = {...box.env, PATH: join(box.home, 'bin')}
    const json = await runCli(['lsp', 'servers', '--json'], {cwd: project, env})
    const result = JSON.parse(json.stdout)
    expect(result.servers.find((s: {command: string}) => s.command === 'gopls')).toMatchObject({
      failure,
      path,
      starts: false,
    })
    expect(result.languages).toEqual([
      {
        id: 'go',
        install: 'go install golang.org/x/tools/gopls@latest',
        name: 'Go',
        problem: `gopls (${path}) does not start: ${failure}`,
        server: null,
      },
    ])

    const text = await runCli(['lsp', 'servers'], {cwd: project, env})
    expect(text.stdout).toMatch(new RegExp(`✗ gopls +go +${path}\n +does not start: `))
    expect(text.stdout).toContain(`does not start: ${failure}\n      → go install golang.org/x/tools/gopls@latest`)
    expect(text.stdout).toContain(`! Go: gopls (${path}) does not start`)
  })

  it('says when no project language is detected', async () => {
    const {exitCode, stdout} = await run(['lsp', 'servers'])
    expect(exitCode).toBe(0)
    expect(stdout).toContain('none detected')
  })
})

describe('hanzo-dev sandbox status', () => {
  it('reports the container, the real probes, the mode and the isolation it gets', async () => {
    // The user's own: a project's allowed paths need trust, and only those inside it count.
    writeUserSettings({sandbox: {allowed_paths: ['/tmp'], mode: 'allowlist'}})
    const json = await run(['sandbox', 'status', '--json'])
    expect(json.exitCode).toBe(0)
    const status = JSON.parse(json.stdout)
    expect(status).toMatchObject({
      allowed_paths: ['/tmp'],
      defaulted: false,
      mode: 'allowlist',
      platform: process.platform,
    })
    expect(['bwrap', 'unshare', 'path-checks']).toContain(status.enforcement)
    if (process.platform === 'linux') expect(status.bubblewrap.probed).toBe(true)

    const text = await run(['sandbox', 'status'])
    expect(text.exitCode).toBe(0)
    expect(text.stdout).toMatch(/^container +\S/m)
    expect(text.stdout).toMatch(/^bubblewrap +\S/m)
    expect(text.stdout).toMatch(/^unshare +\S/m)
    expect(text.stdout).toMatch(/^mode +allowlist \(settings\)$/m)
    expect(text.stdout).toMatch(/^allowed +\/tmp$/m)
    expect(text.stdout).toMatch(/^isolation +\S/m)
  })

  it('applies the default, auto, when the mode is unset: workspace wherever commands can be confined or on a host, off in a container where nothing can', async () => {
    const {exitCode, stdout} = await run(['sandbox', 'status', '--json'])
    expect(exitCode).toBe(0)
    const status = JSON.parse(stdout)
    expect(status.defaulted).toBe(true)
    const confines = status.bubblewrap.works || status.unshare.works
    expect(status.mode).toBe(status.container && !confines ? 'off' : 'workspace')
    expect(status.auto).toEqual(
      status.container
        ? confines
          ? expect.stringMatching(/works inside/)
          : expect.stringMatching(/neither bubblewrap nor unshare works/)
        : 'the default on a host',
    )
    if (status.mode === 'off') expect(status.enforcement).toBe('none')
  })

  // Known answers need known tools: stand-ins whose trial run fails (bwrap) or succeeds (unshare).
  it.runIf(process.platform === 'linux')('is enforced by the first tool whose trial run succeeds', async () => {
    const bin = join(box.home, 'tools')
    mkdirSync(bin, {recursive: true})
    writeFileSync(join(bin, 'bwrap'), '#!/bin/sh\nexit 1\n', {mode: 0o755})
    writeFileSync(join(bin, 'unshare'), '#!/bin/sh\nexit 0\n', {mode: 0o755})
    writeProjectSettings({sandbox: {mode: 'workspace'}})
    const {exitCode, stdout} = await runCli(['sandbox', 'status', '--json'], {
      cwd: project,
      env: {...box.env, PATH: bin},
    })
    expect(exitCode).toBe(0)
    expect(JSON.parse(stdout)).toMatchObject({
      bubblewrap: {works: false},
      enforcement: 'unshare',
      unshare: {works: true},
    })
  })
})

describe('hanzo-dev mcp list', () => {
  const WEB_SHOWN = 'https://[redacted]@mcp.example.com/v1/mcp?access_token=[redacted]#[redacted]'

  it('lists servers with transport, state and tier, and never a secret', async () => {
    const stdio = markerProgram('fs-server')
    writeUserSettings({
      mcp_servers: {
        fs: {
          args: ['--token', 'SECRET-ARG', '--api-key=SECRET-INLINE'],
          command: stdio.path,
          env: {API_TOKEN: 'SECRET-ENV'},
        },
        web: {
          headers: {Authorization: 'Bearer SECRET-HEADER'},
          url: 'https://alice:SECRET-PW@mcp.example.com/v1/mcp?access_token=SECRET-QUERY#frag',
        },
      },
    })
    writeProjectSettings({
      mcp_servers: {pasted: {command: `${stdio.path} --token SECRET-PASTED`}, web: {disabled: true}},
    })
    await trustProject()

    const text = await run(['mcp', 'list', '--offline'])
    expect(text.exitCode).toBe(0)
    expect(text.stdout).toMatch(
      new RegExp(`^fs +enabled +stdio ${stdio.path} --token \\[redacted\\] --api-key=\\[redacted\\] +\\(user\\)$`, 'm'),
    )
    expect(text.stdout).toContain(`web     disabled  http  ${WEB_SHOWN}`)
    expect(text.stdout).toMatch(/^pasted +enabled +stdio \S+ … +\(project\)$/m)

    const json = await run(['mcp', 'list', '--offline', '--json'])
    expect(json.exitCode).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({
      servers: [
        {
          args: ['--token', '[redacted]', '--api-key=[redacted]'],
          enabled: true,
          name: 'fs',
          program: stdio.path,
          tier: 'user',
          transport: 'stdio',
        },
        {enabled: false, name: 'web', tier: 'user', transport: 'http', url: WEB_SHOWN},
        {enabled: true, name: 'pasted', program: `${stdio.path} …`, tier: 'project', transport: 'stdio'},
      ],
    })

    for (const output of [text.stdout, text.stderr, json.stdout, json.stderr]) {
      expect(output).not.toContain('SECRET')
      expect(output).not.toContain('alice')
    }

    expect(existsSync(stdio.mark)).toBe(false)
  })

  it('says when no server is configured', async () => {
    const {exitCode, stdout} = await run(['mcp', 'list'])
    expect(exitCode).toBe(0)
    expect(stdout).toBe('No MCP servers configured (settings.mcp_servers).')
    expect(JSON.parse((await run(['mcp', 'list', '--json'])).stdout)).toEqual({servers: []})
  })
})

describe('hanzo-dev hooks list', () => {
  it('lists event, tools, program, timeout, fail_open and tier, and never runs a hook', async () => {
    const hook = markerProgram('audit-hook')
    writeUserSettings({
      hooks: [{command: `${hook.path} --token SECRET-HOOK`, event: 'pre_tool_use', tool_pattern: 'exec'}],
    })
    writeProjectSettings({
      hooks: [
        {command: 'exit 2', event: 'stop', fail_open: true, timeout_ms: 1000},
        {command: 'no-such-hook-program', event: 'post_tool_use'},
      ],
    })
    await trustProject()

    const json = await run(['hooks', 'list', '--json'])
    expect(json.exitCode).toBe(0)
    expect(JSON.parse(json.stdout)).toEqual({
      hooks: [
        {
          event: 'pre_tool_use',
          fail_open: false,
          index: 0,
          path: hook.path,
          program: hook.path,
          tier: 'user',
          timeout_ms: 5000,
          tool_pattern: 'exec',
        },
        {
          event: 'stop',
          fail_open: true,
          index: 1,
          path: 'builtin',
          program: 'exit',
          tier: 'project',
          timeout_ms: 1000,
          tool_pattern: '*',
        },
        {
          event: 'post_tool_use',
          fail_open: false,
          index: 2,
          path: null,
          problem: 'no-such-hook-program: not found on PATH',
          program: 'no-such-hook-program',
          tier: 'project',
          timeout_ms: 5000,
          tool_pattern: '*',
        },
      ],
    })

    const text = await run(['hooks', 'list'])
    expect(text.exitCode).toBe(0)
    expect(text.stdout).toContain('✓ hooks[0] pre_tool_use  (user)')
    expect(text.stdout).toContain(`program   ${hook.path}  (${hook.path})`)
    expect(text.stdout).toContain('tools     exec')
    expect(text.stdout).toContain('timeout   1000 ms, fail open')
    expect(text.stdout).toContain('program   exit  (shell builtin)')
    expect(text.stdout).toContain('! hooks[2] post_tool_use  (project)')

    for (const output of [text.stdout, text.stderr, json.stdout, json.stderr]) expect(output).not.toContain('SECRET')
    expect(existsSync(hook.mark)).toBe(false)
  })

  it('says when no hook is configured', async () => {
    const {exitCode, stdout} = await run(['hooks', 'list'])
    expect(exitCode).toBe(0)
    expect(stdout).toBe('No hooks configured (settings.hooks).')
  })
})

describe('plugin commands and settings', () => {
  const COMMANDS = [
    ['lsp', 'servers'],
    ['sandbox', 'status'],
    ['mcp', 'list'],
    ['hooks', 'list'],
  ]

  it('exit 1 on a malformed settings file, naming it with line and column, no stack trace', async () => {
    writeProjectSettings('{"model": "x",\n}\n')
    const file = join(project, '.hanzo', 'settings.json')
    for (const command of COMMANDS) {
      const {exitCode, stderr, stdout} = await run(command)
      expect(exitCode, command.join(' ')).toBe(1)
      expect(stdout).toBe('')
      // oclif wraps long messages; the file and position are there once unwrapped.
      const message = unwrapped(stderr)
      expect(message).toContain(`Invalid JSON in ${file}`)
      expect(message).toMatch(/line 2, column 1/)
      expect(stderr).not.toMatch(STACK)

      const json = await run([...command, '--json'])
      expect(json.exitCode).toBe(1)
      expect(JSON.parse(json.stdout).error.message).toContain(file)
    }
  })

  it('prints settings warnings on stderr and still answers', async () => {
    writeProjectSettings({api_key: 'sk-project-SECRET', not_a_setting: 1})
    for (const command of COMMANDS) {
      const {exitCode, stderr} = await run(command)
      expect(exitCode, command.join(' ')).toBe(0)
      expect(stderr).toContain('not_a_setting')
      expect(stderr).not.toContain('SECRET')
    }
  })
})
