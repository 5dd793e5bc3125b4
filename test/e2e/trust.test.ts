import {existsSync, mkdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox, unwrapped} from '../helpers/cli.js'

// A cloned repository's hooks, MCP servers and allow rules stay inert until `hanzo-dev trust`
// (CVE-2025-59536); its deny rules apply at once. Every command sees the same filtered settings.
describe('hanzo-dev trust', () => {
  let box: Sandbox
  let repo: string
  let marker: string
  const run = (...args: string[]) => runCli(args, {cwd: repo, env: box.env})
  const json = async (...args: string[]) => {
    const result = await run(...args, '--json')
    expect(result.exitCode, result.stderr).toBe(0)
    return {stderr: unwrapped(result.stderr), value: JSON.parse(result.stdout)}
  }

  const writeProject = (hookCommand: string) =>
    writeFileSync(
      join(repo, '.hanzo', 'settings.json'),
      JSON.stringify({
        hooks: [{command: hookCommand, event: 'stop'}],
        mcp_servers: {srv: {args: ['server.js', '--token', 'SECRET-ARG'], command: 'node'}},
        model: 'project-model',
        permissions: {'exec(rm *)': 'deny', 'exec(npm test)': 'allow'},
      }),
    )

  /** What of the project's settings the CLI applies, as `config list --json` shows it. */
  const applied = async () => {
    const {stderr, value} = await json('config', 'list')
    const {config} = value as {
      config: {hooks: unknown[]; mcp_servers: object; model: string; permissions: Record<string, string>}
    }
    return {
      hooks: config.hooks.length,
      model: config.model,
      permissions: config.permissions,
      servers: Object.keys(config.mcp_servers),
      stderr,
    }
  }

  const INERT = 'ignored: 1 hook, MCP server "srv", 1 allow rule'

  beforeEach(() => {
    box = makeSandbox('hanzo-trust-')
    repo = join(box.home, 'repo')
    marker = join(box.home, 'hook-ran')
    mkdirSync(join(repo, '.git'), {recursive: true})
    mkdirSync(join(repo, '.hanzo'))
    writeProject(`touch ${marker}`)
  })
  afterEach(() => box.cleanup())

  it('keeps an untrusted project inert but for its deny rules, says so once, and applies it once trusted', async () => {
    const before = await applied()
    expect(before).toMatchObject({hooks: 0, model: 'project-model', permissions: {'exec(rm *)': 'deny'}, servers: []})
    expect(before.permissions).not.toHaveProperty(['exec(npm test)'])
    expect(before.stderr.split(INERT)).toHaveLength(2)
    expect(before.stderr).toContain('(this project is not trusted); run "hanzo-dev trust" to review and trust them')

    // Plugin commands get the same view, and the warning is not repeated; what was left out is
    // listed as not trusted, every time, never as "none configured".
    const hooks = await json('hooks', 'list')
    expect(hooks.value).toEqual({
      hooks: [expect.objectContaining({event: 'stop', program: 'touch', tier: 'project', trusted: false})],
    })
    expect(hooks.stderr).not.toContain('ignored')
    expect((await json('mcp', 'list', '--offline')).value.servers).toEqual([
      {
        // Flags are shown, any other word is not (it may be a secret).
        args: ['[redacted]', '--token', '[redacted]'],
        enabled: false,
        name: 'srv',
        program: 'node',
        tier: 'project',
        transport: 'stdio',
        trusted: false,
      },
    ])
    const listed = await run('mcp', 'list')
    expect(listed.stdout).toMatch(
      /^srv {2}not trusted {2}stdio node \[redacted\] --token \[redacted\] {2}\(project\)$/m,
    )
    expect(listed.stdout).toContain('(run hanzo-dev trust to review and trust them)')
    expect(listed.stdout + listed.stderr).not.toContain('SECRET-ARG')
    expect((await run('hooks', 'list')).stdout).toContain('! hooks[0] stop  (project)  not trusted')
    const doctor = JSON.parse((await run('doctor', '--offline', '--json')).stdout) as {
      checks: Array<{id: string; status: string; hint?: string}>
    }
    expect(doctor.checks.filter((c) => c.id.includes('untrusted'))).toEqual([
      expect.objectContaining({
        hint: 'run hanzo-dev trust to review and trust them',
        id: 'hooks.untrusted.0',
        status: 'warn',
      }),
      expect.objectContaining({
        hint: 'run hanzo-dev trust to review and trust them',
        id: 'mcp.untrusted.srv',
        status: 'warn',
      }),
    ])
    const tested = await run('hooks', 'test', 'stop')
    expect(tested.stdout).toBe('No stop hooks (settings.hooks).')
    expect(existsSync(marker)).toBe(false)

    // Off a terminal, trust shows what it would trust and asks for --yes.
    const refused = await run('trust')
    expect(refused.exitCode).toBe(2)
    expect(refused.stdout).toContain(`stop (tools: *): touch ${marker}`)
    expect(refused.stdout).toContain('srv: node server.js --token [redacted]')
    expect(refused.stdout).toContain('exec(npm test): allow')
    expect(refused.stdout).not.toContain('SECRET-ARG')
    expect(unwrapped(refused.stderr)).toContain('hanzo-dev trust --yes')

    const trusted = await json('trust', '--yes')
    expect(trusted.value).toMatchObject({projectRoot: repo, status: 'trusted'})
    expect(JSON.stringify(trusted.value)).not.toContain('SECRET-ARG')
    const store = join(box.env.XDG_DATA_HOME, 'hanzo-dev', 'trusted-projects.json')
    expect(statSync(store).mode & 0o777).toBe(0o600)

    const after = await applied()
    expect(after).toMatchObject({
      hooks: 1,
      permissions: {'exec(npm test)': 'allow', 'exec(rm *)': 'deny'},
      servers: ['srv'],
    })
    expect(after.stderr).not.toContain('ignored')
    expect((await json('hooks', 'list')).value.hooks).toMatchObject([
      {event: 'stop', program: 'touch', tier: 'project'},
    ])
    expect((await json('mcp', 'list', '--offline')).value.servers).toEqual([
      {
        args: ['[redacted]', '--token', '[redacted]'],
        enabled: true,
        name: 'srv',
        program: 'node',
        tier: 'project',
        transport: 'stdio',
      },
    ])
    expect((await json('trust', '--yes')).value.status).toBe('already-trusted')
  })

  it('makes changed settings inert again, saying so once; a change to other settings keeps the trust', async () => {
    expect((await run('trust', '--yes')).exitCode).toBe(0)
    writeFileSync(
      join(repo, '.hanzo', 'settings.json'),
      readFileSync(join(repo, '.hanzo', 'settings.json'), 'utf8').replace('project-model', 'other-model'),
    )
    expect(await applied()).toMatchObject({hooks: 1, model: 'other-model', servers: ['srv']})

    writeProject(`touch ${marker}-changed`)
    const first = await applied()
    expect(first).toMatchObject({hooks: 0, servers: []})
    expect(first.stderr).toContain(`${INERT} (these settings changed since you trusted this project)`)
    const second = await applied()
    expect(second.hooks).toBe(0)
    expect(second.stderr).not.toContain('ignored')

    const listed = await json('trust', '--list')
    expect(listed.value.projects).toMatchObject([{root: repo, status: 'changed'}])

    expect((await run('trust', '--yes')).exitCode).toBe(0)
    expect((await json('trust', '--list')).value.projects).toMatchObject([{root: repo, status: 'trusted'}])
    expect((await applied()).hooks).toBe(1)
  })

  it('revokes trust, after which the project is inert again', async () => {
    expect((await run('trust', '--yes')).exitCode).toBe(0)
    const revoked = await json('trust', '--revoke')
    expect(revoked.value).toEqual({projectRoot: repo, revoked: true})
    const after = await applied()
    expect(after).toMatchObject({hooks: 0, servers: []})
    expect(after.stderr).toContain(INERT)
    expect((await json('trust', '--list')).value).toEqual({current: {root: repo, status: 'untrusted'}, projects: []})
    expect((await json('trust', '--revoke')).value).toEqual({projectRoot: repo, revoked: false})
  })

  it("keeps the trust through the user's own config set, and needs none for settings that need none", async () => {
    writeFileSync(
      join(repo, '.hanzo', 'settings.json'),
      JSON.stringify({model: 'm', permissions: {'exec(rm *)': 'deny'}}),
    )
    const plain = await applied()
    expect(plain.stderr).not.toContain('ignored')
    expect((await json('trust')).value).toEqual({projectRoot: repo, status: 'not-needed'})

    expect((await run('config', 'set', 'mcp_servers.fs', '{"command":["npx","-y"]}', '--tier', 'local')).exitCode).toBe(
      0,
    )
    expect(await applied()).toMatchObject({servers: ['fs']})
    expect((await run('config', 'set', 'permissions.fs_write', 'allow', '--tier', 'project')).exitCode).toBe(0)
    const edited = await applied()
    expect(edited).toMatchObject({permissions: {fs_write: 'allow'}, servers: ['fs']})
    expect(edited.stderr).not.toContain('ignored')
  })
})
