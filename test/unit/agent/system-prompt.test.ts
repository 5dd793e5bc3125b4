import {describe, expect, it} from 'vitest'

import {buildSystemPrompt, type SystemPromptParts} from '../../../src/core/agent/system-prompt.js'

const ALL = ['fs_read', 'fs_write', 'fs_edit', 'fs_list', 'fs_glob', 'fs_grep', 'exec', 'todo_write', 'task']

function parts(overrides: Partial<SystemPromptParts> = {}): SystemPromptParts {
  return {
    environment: {cwd: '/work/app', date: '2026-12-07', os: 'Linux 6.8.0 (x64)', shell: 'bash'},
    pluginContext: [],
    projectFiles: [],
    tools: ALL,
    ...overrides,
  }
}

describe('the system prompt', () => {
  it('has the sections of a coding agent: tools, git, verification, communication, safety, environment', () => {
    const prompt = buildSystemPrompt(parts())
    for (const heading of [
      '# Using the tools',
      '# Git safety',
      '# Verification',
      '# Communication',
      '# Safety',
      '# Environment',
    ])
      expect(prompt).toContain(`\n${heading}\n`)
    expect(prompt).toContain('fs_grep and find files by name with fs_glob, not with grep, find or ls through exec')
    expect(prompt).toContain('Read a file with fs_read before changing it')
    expect(prompt).toContain('Never force-push, amend, rebase')
    expect(prompt).toContain('Never commit, push')
    expect(prompt).toContain('path:line')
    expect(prompt).toContain('Never print, copy or write secrets')
    expect(prompt).toContain('- Working directory: /work/app\n')
    expect(prompt).toContain("- Today's date: 2026-12-07")
  })

  it('names only the tools it is offered', () => {
    const prompt = buildSystemPrompt(parts({tools: ['fs_read', 'fs_grep']}))
    expect(prompt).toContain('Search file contents with fs_grep: they skip ignored files')
    for (const absent of ['fs_glob', 'fs_edit', 'fs_write', 'exec', 'todo_write', 'task', 'web_fetch', '# Git safety'])
      expect(prompt).not.toContain(absent)
    expect(prompt).toContain('You cannot run commands in this session')
  })

  it('advises the todo list and subagents only when they are offered', () => {
    const without = buildSystemPrompt(parts({tools: ['fs_read', 'exec']}))
    expect(without).not.toContain('todo_write')
    expect(without).not.toMatch(/\btask\b/)
    const withThem = buildSystemPrompt(parts())
    expect(withThem).toContain('keep a todo list with todo_write')
    expect(withThem).toContain('Use task for wide searches')
  })

  it('lists the skills, name and description in their order, only when the skill tool is offered', () => {
    const skills = [
      {description: 'Cut a release', name: 'release'},
      {description: 'Fill PDF forms', name: 'pdf'},
    ]
    expect(buildSystemPrompt(parts({skills, tools: [...ALL, 'skill']}))).toContain(
      '\n# Skills (instructions for particular tasks: when a task matches one, load it with the skill tool first)\n- release: Cut a release\n- pdf: Fill PDF forms',
    )
    expect(buildSystemPrompt(parts({skills}))).not.toContain('# Skills')
  })

  it('has no tool section for a session without tools', () => {
    expect(buildSystemPrompt(parts({tools: []}))).not.toContain('# Using the tools')
  })

  it('is the same bytes for the same inputs, whatever the order of the tool names or the time of day', () => {
    const first = buildSystemPrompt(parts())
    expect(buildSystemPrompt(parts({tools: [...ALL].reverse()}))).toBe(first)
    expect(first).not.toMatch(/\d{1,2}:\d{2}/)
  })

  it('has a git section with the branch and status snapshot only in a repository', () => {
    expect(buildSystemPrompt(parts())).not.toContain('Branch:')
    const prompt = buildSystemPrompt(
      parts({
        environment: {
          ...parts().environment,
          git: {branch: 'main', more: 3, root: '/work/app', status: [' M src/a.ts', '?? notes.md']},
        },
      }),
    )
    expect(prompt).toContain('- Branch: main\n- Status:\n     M src/a.ts\n    ?? notes.md\n    ... and 3 more')
    const clean = buildSystemPrompt(
      parts({environment: {...parts().environment, git: {branch: 'main', more: 0, root: '/w', status: []}}}),
    )
    expect(clean).toContain('- Status:\n    (clean)')
  })

  it('keeps the project files, the user instructions, the memory and plugin context, in that order, labelled', () => {
    const prompt = buildSystemPrompt(
      parts({
        customInstructions: 'Be terse.',
        pluginContext: ['LSP says: 2 errors'],
        projectFiles: [
          {name: 'AGENTS.md', text: 'Root rules.\n'},
          {name: 'pkg/AGENTS.md', text: 'Package rules.'},
        ],
        userMemory: 'I use pnpm.',
      }),
    )
    const order = [
      '# Project instructions (AGENTS.md)\n\nRoot rules.',
      '# Project instructions (pkg/AGENTS.md)\n\nPackage rules.',
      "# The user's instructions\n\nBe terse.",
      "# The user's memory (their notes for every project)\n\nI use pnpm.",
      'LSP says: 2 errors',
    ].map((text) => prompt.indexOf(text))
    expect(order.every((at) => at > 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
  })
})
