import {describe, expect, it} from 'vitest'

import {DEFAULT_PERMISSION_RULES, globMatches, parseRulePattern, PermissionPolicy} from '../../../src/core/permissions/index.js'

describe('globMatches', () => {
  it('reads * as any run, ? as one character, the rest literally', () => {
    expect(globMatches('a*c', 'abbbc')).toBe(true)
    expect(globMatches('a*c', 'ac')).toBe(true)
    expect(globMatches('a*', 'a b/c\nd')).toBe(true)
    expect(globMatches('a?c', 'a😀c')).toBe(true)
    expect(globMatches('a?c', 'ac')).toBe(false)
    expect(globMatches('a.c', 'abc')).toBe(false)
    expect(globMatches('[ab]', 'a')).toBe(false)
    expect(globMatches('', '')).toBe(true)
    expect(globMatches('**', '')).toBe(true)
  })

  it('stays fast on the worst case of a backtracking matcher', () => {
    const text = 'a'.repeat(20_000)
    expect(globMatches('*a*a*a*a*a*b', text)).toBe(false)
    expect(globMatches('*a*a*a*a*a*', text)).toBe(true)
  })
})

describe('parseRulePattern', () => {
  it('splits the tool glob from the argument, which may hold parentheses', () => {
    expect(parseRulePattern('fs.write')).toEqual({tool: 'fs_write'})
    expect(parseRulePattern('exec(echo (a) b)')).toEqual({argument: 'echo (a) b', tool: 'exec'})
    expect(parseRulePattern('exec()')).toEqual({argument: '', tool: 'exec'})
  })

  it('gives nothing for a pattern without meaning', () => {
    for (const pattern of ['', 'exec(rm *', '(x)', 'exec)', 'exec(a) b']) expect(parseRulePattern(pattern), pattern).toBeUndefined()
  })
})

describe('PermissionPolicy', () => {
  const rule = (pattern: string, mode: 'allow' | 'deny' | 'prompt', tier: 'user' | 'project' | 'local' = 'user') => ({file: `/${tier}.json`, mode, pattern, tier})

  it('ships allow rules for the read-only built-ins and uses them when no defaults are given', () => {
    expect(DEFAULT_PERMISSION_RULES.map((r) => `${r.pattern}:${r.mode}`)).toEqual(['fs_read:allow', 'fs_list:allow', 'fs_glob:allow', 'fs_grep:allow'])
    const policy = new PermissionPolicy([])
    expect(policy.evaluate('fs.read', {path: 'a'})).toEqual({mode: 'allow', rule: {mode: 'allow', pattern: 'fs_read', tier: 'default'}})
    expect(policy.evaluate('fs_write', {path: 'a'})).toEqual({mode: 'prompt', rule: null})
  })

  it('counts a call without facts as mutating', () => {
    const policy = new PermissionPolicy([], {defaults: [], mode: 'allow-reads'})
    expect(policy.evaluate('mcp__docs__search').mode).toBe('prompt')
    expect(policy.evaluate('mcp__docs__search', {}, {mutating: false}).mode).toBe('allow')
  })

  it('says which settings file denied a call', () => {
    const policy = new PermissionPolicy([rule('exec(*)', 'allow', 'project'), rule('exec(rm *)', 'deny')])
    expect(policy.evaluate('exec', {command: 'rm -rf /'})).toEqual({
      mode: 'deny',
      reason: '"exec(rm *)" is denied by the user settings (/user.json)',
      rule: rule('exec(rm *)', 'deny'),
    })
  })

  it('takes the highest tier deny when several tiers deny', () => {
    const policy = new PermissionPolicy([rule('exec', 'deny', 'local'), rule('exec(rm *)', 'deny', 'user')])
    expect(policy.evaluate('exec', {command: 'rm x'}).rule).toMatchObject({pattern: 'exec', tier: 'local'})
  })

  it('reads rules of one tier in their order wherever they sit in the list', () => {
    const policy = new PermissionPolicy([rule('exec(git *)', 'allow', 'user'), rule('exec', 'prompt', 'local'), rule('exec', 'deny', 'user')])
    expect(policy.evaluate('exec', {command: 'git log'})).toMatchObject({mode: 'prompt', rule: {tier: 'local'}})
  })
})
