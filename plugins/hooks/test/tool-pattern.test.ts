import {describe, expect, it} from 'vitest'

import {matchesToolPattern} from '../src/tool-pattern.js'

describe('matchesToolPattern', () => {
  it.each([
    ['*', 'exec', true],
    ['exec', 'exec', true],
    ['exec', 'exec2', false],
    ['fs_*', 'fs_write', true],
    ['fs.*', 'fs_write', true],
    ['fs.write', 'fs_write', true],
    ['fs_write', 'fs.write', true],
    ['fs_?rite', 'fs_write', true],
    ['fs_*', 'exec', false],
    ['mcp__github__*', 'mcp__github__create_issue', true],
    ['mcp__github__*', 'mcp__gitlab__x', false],
    // Regex syntax in a pattern is plain text.
    ['exec|fs_write', 'exec', false],
    ['(exec)', '(exec)', true],
    ['Exec', 'exec', false],
  ])('%s against %s: %s', (pattern, name, expected) => {
    expect(matchesToolPattern(pattern, name)).toBe(expected)
  })
})
