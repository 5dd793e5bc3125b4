import type {ToolDefinition} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {builtinTools} from '../../../src/adapters/tools/index.js'
import {ToolRegistry} from '../../../src/core/tools/registry.js'
import {parseToolScope, scopedToolNames, unknownToolEntry} from '../../../src/core/tools/scope.js'

const tool = (name: string, mutating = false): ToolDefinition => ({
  description: name,
  execute: async () => ({error: null, is_error: false, output: ''}),
  inputSchema: {type: 'object'},
  mutating,
  name,
})

/** The built-ins, then plugin tools registered in the order given (as plugins and servers answer). */
function registry(plugins: Array<[string, string]>): ToolRegistry {
  const tools = new ToolRegistry()
  for (const definition of builtinTools()) tools.register(definition, 'builtin')
  for (const [origin, name] of plugins)
    tools.register(tool(name), origin === '@hanzo-dev/plugin-mcp' ? 'core' : 'user', origin)
  return tools
}

const PLUGINS: Array<[string, string]> = [
  ['@hanzo-dev/plugin-mcp', 'mcp__github__list_issues'],
  ['@hanzo-dev/plugin-git', 'git_status'],
  ['@hanzo-dev/plugin-mcp', 'mcp__files__read'],
  ['@hanzo-dev/plugin-git', 'git_diff'],
  ['@hanzo-dev/plugin-lsp', 'lsp_hover'],
  ['@hanzo-dev/plugin-mcp', 'mcp__github__create_issue'],
]

const BUILTINS = builtinTools().map((t) => t.name)

describe('the order of the tools', () => {
  it('is the built-ins in builtinTools order, then plugin tools by plugin and name, whatever order they came in', () => {
    const expected = [
      ...BUILTINS,
      'git_diff',
      'git_status',
      'lsp_hover',
      'mcp__files__read',
      'mcp__github__create_issue',
      'mcp__github__list_issues',
    ]
    expect(scopedToolNames(registry(PLUGINS), 'all').names).toEqual(expected)
    expect(scopedToolNames(registry([...PLUGINS].reverse()), 'all').names).toEqual(expected)
  })

  it('stays the same when an MCP server that came up late replaces its tools', () => {
    const tools = registry(PLUGINS)
    const before = scopedToolNames(tools, 'all').names
    tools.replace('@hanzo-dev/plugin-mcp', 'core', [tool('mcp__github__list_issues'), tool('mcp__files__read')])
    tools.replace('@hanzo-dev/plugin-mcp', 'core', [
      tool('mcp__github__create_issue'),
      tool('mcp__github__list_issues'),
      tool('mcp__files__read'),
    ])
    expect(scopedToolNames(tools, 'all').names).toEqual(before)
  })
})

describe('a list of tools', () => {
  const tools = registry(PLUGINS)
  const names = (list: string) => scopedToolNames(tools, parseToolScope(list))

  it('takes groups: fs is every fs_* tool, exec is exec with exec_output and exec_kill', () => {
    expect(names('fs,exec')).toEqual({
      names: [
        'fs_read',
        'fs_write',
        'fs_edit',
        'fs_multi_edit',
        'fs_list',
        'fs_glob',
        'fs_grep',
        'exec',
        'exec_output',
        'exec_kill',
      ],
      unknown: [],
    })
    expect(names('web, git,lsp').names).toEqual(['web_fetch', 'git_diff', 'git_status', 'lsp_hover'])
    expect(names('mcp').names).toEqual(['mcp__files__read', 'mcp__github__create_issue', 'mcp__github__list_issues'])
  })

  it('takes names, the dotted spelling of rules, and globs, in the registry order whatever the list order', () => {
    expect(names('mcp__github__*,todo_write,fs.read').names).toEqual([
      'fs_read',
      'todo_write',
      'mcp__github__create_issue',
      'mcp__github__list_issues',
    ])
  })

  it("takes Claude Code's names as aliases of the built-ins, as names only, never as globs", () => {
    expect(names('Read,Grep,Bash,TodoWrite').names).toEqual(['fs_read', 'fs_grep', 'exec', 'todo_write'])
    expect(names('Re*').unknown).toEqual(['Re*'])
  })

  it('names the entries that take in no tool, each once', () => {
    expect(names('fs_read,nope,mcp__slack__*,nope').unknown).toEqual(['nope', 'mcp__slack__*'])
    expect(unknownToolEntry('nope')).toBe('tool "nope" is not offered: no tool has that name')
    expect(unknownToolEntry('mcp__slack__*')).toBe('tools "mcp__slack__*" offer nothing: no tool matches it')
    expect(unknownToolEntry('git')).toBe('tools "git" offer nothing: no tool of that group is here')
  })

  it('reads all, none and read-only alone as those scopes, and an empty list as no tool', () => {
    expect(parseToolScope('all')).toBe('all')
    expect(parseToolScope(' none ')).toBe('none')
    expect(parseToolScope(['read-only'])).toBe('read-only')
    expect(parseToolScope('read-only,exec')).toEqual(['read-only', 'exec'])
    expect(parseToolScope('')).toEqual([])
    expect(names('read-only').names).not.toContain('fs_write')
  })
})
