import type {AgentSession, ContributedSlashCommand, SlashCommandDefinition} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {SessionApprovals} from '../../../src/core/permissions/session-approvals.js'
import {builtinCommands, type ChatFacts} from '../../../src/ui/builtin-commands.js'

const plugin = (
  name: string,
  from: string,
  pluginType: ContributedSlashCommand['pluginType'] = 'core',
): ContributedSlashCommand => ({
  definition: {
    description: `${from}'s ${name}`,
    name,
    run: () => ({message: `${from} ${name}`}),
  } satisfies SlashCommandDefinition,
  plugin: from,
  pluginType,
})

function chatRegistry() {
  const facts = {
    approvals: new SessionApprovals(),
    dataDir: '/nowhere',
    login: async () => undefined,
    logout: async () => {},
    permissionMode: 'prompt',
    pricing: undefined,
    projectRoot: '/project',
    reopen: async () => {},
    session: {} as AgentSession,
  } satisfies ChatFacts
  return builtinCommands(facts)
}

describe("the chat's registry with the plugins' commands", () => {
  it('takes them after the built-ins, in the order the plugins answered', () => {
    const registry = chatRegistry()
    const builtins = registry.list().map((c) => c.definition.name)
    expect(builtins).toEqual([
      'help',
      'clear',
      'exit',
      'login',
      'logout',
      'vim',
      'cost',
      'status',
      'context',
      'permissions',
      'bashes',
      'skills',
      'model',
      'compact',
      'resume',
      'fork',
      'rewind',
      'undo',
      'redo',
      'init',
    ])
    expect(
      registry.registerContributed([
        plugin('diff', '@hanzo-dev/plugin-git'),
        plugin('plan', '@hanzo-dev/plugin-agents'),
        plugin('mcp', '@hanzo-dev/plugin-mcp'),
      ]),
    ).toEqual([])
    expect(registry.list().map((c) => c.definition.name)).toEqual([...builtins, 'diff', 'plan', 'mcp'])
    expect(registry.get('diff')).toMatchObject({origin: '@hanzo-dev/plugin-git', source: 'core'})
  })

  it('refuses a name a built-in or an earlier plugin has, with a warning naming the plugin, and keeps the first', async () => {
    const registry = chatRegistry()
    const warnings = registry.registerContributed([
      plugin('init', 'hanzo-init', 'user'),
      plugin('diff', '@hanzo-dev/plugin-git'),
      plugin('diff', 'my-diff', 'link'),
    ])
    expect(warnings).toEqual([
      'slash command /init from user plugin "hanzo-init" ignored: the interactive session already provides it',
      'slash command /diff from link plugin "my-diff" ignored: core plugin "@hanzo-dev/plugin-git" already provides it',
    ])
    expect(registry.get('init')?.source).toBe('builtin')
    const diff = registry.get('diff')!
    expect(
      await diff.definition.run({
        args: '',
        argv: [],
        chat: undefined as never,
        cwd: '/',
        signal: new AbortController().signal,
      }),
    ).toEqual({message: '@hanzo-dev/plugin-git diff'})
  })

  it("replaces the plugins' commands with another session's and keeps the built-ins (/resume ID)", () => {
    const registry = chatRegistry()
    const builtins = registry.list().map((c) => c.definition.name)
    registry.registerContributed([plugin('diff', '@hanzo-dev/plugin-git'), plugin('plan', '@hanzo-dev/plugin-agents')])
    expect(
      registry.replaceContributed([plugin('plan', '@hanzo-dev/plugin-agents'), plugin('help', 'sneaky', 'user')]),
    ).toEqual(['slash command /help from user plugin "sneaky" ignored: the interactive session already provides it'])
    expect(registry.list().map((c) => c.definition.name)).toEqual([...builtins, 'plan'])
  })

  it('answers a near miss of a plugin command or a built-in with "did you mean"', () => {
    const registry = chatRegistry()
    registry.registerContributed([
      plugin('commit', '@hanzo-dev/plugin-git'),
      plugin('worktree', '@hanzo-dev/plugin-git'),
    ])
    expect(registry.resolve('/comit')).toMatchObject({
      kind: 'unknown',
      message: 'Unknown command /comit. Did you mean /commit?',
      suggestion: 'commit',
    })
    expect(registry.resolve('/worktre x')).toMatchObject({message: 'Unknown command /worktre. Did you mean /worktree?'})
    expect(registry.resolve('/compcat')).toMatchObject({suggestion: 'compact'})
    expect(registry.resolve('/qqq')).toMatchObject({
      message: 'Unknown command /qqq. Type /help for the list, or start with // to send it as text.',
    })
  })
})
