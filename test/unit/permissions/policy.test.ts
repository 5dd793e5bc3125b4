import {describe, expect, it} from 'vitest'

import {
  DEFAULT_PERMISSION_RULES,
  globCoversShape,
  globMatches,
  globOverlapsShape,
  parseRulePattern,
  PermissionPolicy,
  PROTECTED_PERMISSION_RULES,
  protectedPathRules,
} from '../../../src/core/permissions/index.js'
import {judgingBuiltins} from '../../helpers/tool-calls.js'

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

describe('globCoversShape and globOverlapsShape', () => {
  it('covers a shape when every expansion of it matches, and overlaps when some does', () => {
    expect(globCoversShape('rm *', 'rm -rf *')).toBe(true)
    expect(globCoversShape('rm *', '* -rf /')).toBe(false)
    expect(globOverlapsShape('rm *', '* -rf /')).toBe(true)
    expect(globOverlapsShape('rm *', 'r? -rf /')).toBe(true)
    expect(globCoversShape('r?', 'r?')).toBe(true)
    expect(globCoversShape('rm', 'r?')).toBe(false)
    expect(globOverlapsShape('git *', 'echo *')).toBe(false)
    expect(globOverlapsShape('*', '')).toBe(true)
    expect(globCoversShape('*/.hanzo/settings.json', '*/.hanzo/settings.json')).toBe(true)
  })

  it('reads escapes in the shape as the characters themselves', () => {
    expect(globCoversShape('a*', 'a\\*')).toBe(true)
    expect(globOverlapsShape('ab', 'a\\*')).toBe(false)
    expect(globCoversShape('a\\b', 'a\\\\b')).toBe(true)
  })

  it('stays linear in the shape', () => {
    const shape = `${'a'.repeat(200_000)}*`
    expect(globOverlapsShape('*a*a*a*b', shape)).toBe(true)
    expect(globCoversShape('*a*a*a*b', shape)).toBe(false)
  })
})

describe('parseRulePattern', () => {
  it('splits the tool glob from the argument, which may hold parentheses', () => {
    expect(parseRulePattern('fs.write')).toEqual({tool: 'fs_write'})
    expect(parseRulePattern('exec(echo (a) b)')).toEqual({argument: 'echo (a) b', tool: 'exec'})
    expect(parseRulePattern('exec()')).toEqual({argument: '', tool: 'exec'})
  })

  it('gives nothing for a pattern without meaning', () => {
    for (const pattern of ['', 'exec(rm *', '(x)', 'exec)', 'exec(a) b'])
      expect(parseRulePattern(pattern), pattern).toBeUndefined()
  })
})

describe('PermissionPolicy', () => {
  const rule = (pattern: string, mode: 'allow' | 'deny' | 'prompt', tier: 'user' | 'project' | 'local' = 'user') => ({
    file: `/${tier}.json`,
    mode,
    pattern,
    tier,
  })

  it('ships allow rules for the read-only built-ins (and the plan, and task) and uses them when no defaults are given', () => {
    expect(DEFAULT_PERMISSION_RULES.map((r) => `${r.pattern}:${r.mode}`)).toEqual([
      ...['fs_read', 'fs_list', 'fs_glob', 'fs_grep', 'todo_write', 'skill', 'task'].map((tool) => `${tool}:allow`),
      ...['git_status', 'git_diff', 'git_log'].map((tool) => `${tool}:allow`),
      ...['lsp_diagnostics', 'lsp_definition', 'lsp_references', 'lsp_hover', 'lsp_symbols'].map(
        (tool) => `${tool}:allow`,
      ),
    ])
    const policy = new PermissionPolicy([])
    expect(judgingBuiltins(policy).evaluate('fs.read', {path: 'a'})).toEqual({
      mode: 'allow',
      rule: {mode: 'allow', pattern: 'fs_read', tier: 'default'},
    })
    expect(judgingBuiltins(policy).evaluate('fs_write', {path: 'a'})).toEqual({mode: 'prompt', rule: null})
  })

  it("keeps the shipped allows from a tool that is not trusted, whatever its name, but not the user's own", () => {
    const policy = new PermissionPolicy([])
    expect(judgingBuiltins(policy).evaluate('git_status', {}, {mutating: false}).mode).toBe('allow')
    // A plugin the user installed may call its tool git_status: it counts as mutating, and is asked.
    expect(judgingBuiltins(policy).evaluate('git_status', {}, {mutating: true, trusted: false})).toEqual({
      mode: 'prompt',
      rule: null,
    })
    const shipped = new PermissionPolicy([], {defaults: [{mode: 'deny', pattern: 'git_status'}]})
    expect(judgingBuiltins(shipped).evaluate('git_status', {}, {mutating: true, trusted: false}).mode).toBe('deny')
    const configured = new PermissionPolicy([rule('git_status', 'allow')])
    expect(judgingBuiltins(configured).evaluate('git_status', {}, {mutating: true, trusted: false}).mode).toBe('allow')
  })

  it('counts a call without facts as mutating', () => {
    const policy = new PermissionPolicy([], {defaults: [], mode: 'allow-reads'})
    expect(judgingBuiltins(policy).evaluate('mcp__docs__search').mode).toBe('prompt')
    expect(judgingBuiltins(policy).evaluate('mcp__docs__search', {}, {mutating: false}).mode).toBe('allow')
  })

  it('says which settings file denied a call', () => {
    const policy = new PermissionPolicy([rule('exec(*)', 'allow', 'project'), rule('exec(rm *)', 'deny')])
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'rm -rf /'})).toEqual({
      mode: 'deny',
      reason: '"exec(rm *)" is denied by the user settings (/user.json)',
      rule: rule('exec(rm *)', 'deny'),
    })
  })

  it('takes the highest tier deny when several tiers deny', () => {
    const policy = new PermissionPolicy([rule('exec', 'deny', 'local'), rule('exec(rm *)', 'deny', 'user')])
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'rm x'}).rule).toMatchObject({
      pattern: 'exec',
      tier: 'local',
    })
  })

  it('reads rules of one tier in their order wherever they sit in the list', () => {
    const policy = new PermissionPolicy([
      rule('exec(git *)', 'allow', 'user'),
      rule('exec', 'prompt', 'local'),
      rule('exec', 'deny', 'user'),
    ])
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'git log'})).toMatchObject({
      mode: 'prompt',
      rule: {tier: 'local'},
    })
  })

  it('allows a command line when each part is allowed by its own rule, and says which rule allowed the first', () => {
    const policy = new PermissionPolicy([
      rule('exec(git diff*)', 'allow', 'project'),
      rule('exec(git status*)', 'allow', 'user'),
    ])
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'git status && git diff'})).toMatchObject({
      mode: 'allow',
      rule: {pattern: 'exec(git status*)'},
    })
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'git status && git log'})).toEqual({
      mode: 'prompt',
      rule: null,
    })
  })

  it('denies when a deny rule may match, in every mode: what cannot be resolved counts as a match', () => {
    const rules = [rule('exec(*)', 'allow', 'project'), rule('exec(rm *)', 'deny')]
    const evaluate = (mode: 'prompt' | 'allow-all' | 'allow-reads' | 'deny', mutating = true) =>
      judgingBuiltins(new PermissionPolicy(rules, {mode})).evaluate('exec', {command: 'X=rm; $X -rf /'}, {mutating})
    expect(evaluate('prompt')).toEqual({
      mode: 'deny',
      reason: expect.stringContaining('"exec(rm *)"'),
      rule: rule('exec(rm *)', 'deny'),
    })
    for (const mode of ['allow-reads', 'allow-all', 'deny'] as const)
      expect(evaluate(mode)).toMatchObject({mode: 'deny', reason: expect.stringContaining('counts as a match')})
    expect(evaluate('allow-reads', false)).toMatchObject({mode: 'deny'})
  })

  it('lets a deny that may match, written before an allow, stand; and an allow before it shield it', () => {
    const command = {command: '$X --version'}
    expect(
      judgingBuiltins(new PermissionPolicy([rule('exec(rm *)', 'deny'), rule('exec', 'allow')])).evaluate(
        'exec',
        command,
      ),
    ).toMatchObject({mode: 'deny', rule: {pattern: 'exec(rm *)'}})
    expect(
      judgingBuiltins(new PermissionPolicy([rule('exec', 'allow'), rule('exec(rm *)', 'deny')])).evaluate(
        'exec',
        command,
      ),
    ).toMatchObject({mode: 'allow', rule: {pattern: 'exec'}})
  })

  it('denies a command that cannot be read where an exec deny rule could match it', () => {
    const policy = new PermissionPolicy([rule('exec', 'allow'), rule('exec(curl *)', 'deny', 'project')], {
      mode: 'allow-all',
    })
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'echo "oops'})).toMatchObject({
      mode: 'deny',
      rule: {pattern: 'exec(curl *)'},
    })
    expect(
      judgingBuiltins(new PermissionPolicy([rule('exec', 'allow')], {mode: 'allow-all'})).evaluate('exec', {
        command: 'echo "oops',
      }).mode,
    ).toBe('allow')
  })

  it('never allows a path the caller found to lead out of the workspace', () => {
    const policy = new PermissionPolicy([rule('fs_write(src/**)', 'allow')])
    expect(
      judgingBuiltins(policy).evaluate('fs_write', {path: 'src/link/x'}, {canonicalPath: null, mutating: true}).mode,
    ).toBe('prompt')
    expect(
      judgingBuiltins(policy).evaluate('fs_write', {path: 'src/link/x'}, {canonicalPath: 'src/link/x', mutating: true})
        .mode,
    ).toBe('allow')
  })

  it('reads the wrapper around the commands of a long script once per rule (reading it for each would time out)', () => {
    const policy = new PermissionPolicy([
      rule('exec(a*)', 'allow'),
      rule('exec(bash -c *rm -rf*)', 'deny'),
      rule('exec(curl *)', 'deny'),
    ])
    expect(judgingBuiltins(policy).evaluate('exec', {command: `bash -c '${'a;'.repeat(50_000)}'`}).mode).toBe('allow')
  })
})

describe('PermissionPolicy: protected files', () => {
  const rule = (pattern: string, mode: 'allow' | 'deny' | 'prompt', tier: 'user' | 'project' | 'local' = 'local') => ({
    file: `/${tier}.json`,
    mode,
    pattern,
    tier,
  })

  it('ships deny rules for the settings files, which win over every allow and every mode', () => {
    expect(
      PROTECTED_PERMISSION_RULES.map(({pattern}) => pattern).filter((pattern) => pattern.includes('.hanzo')),
    ).toEqual([
      'fs_write(.hanzo/settings.json)',
      'fs_write(*/.hanzo/settings.json)',
      'fs_write(.hanzo/settings.local.json)',
      'fs_write(*/.hanzo/settings.local.json)',
      'fs_write(.hanzo)',
      'fs_write(*/.hanzo)',
      'fs_edit(.hanzo/settings.json)',
      'fs_edit(*/.hanzo/settings.json)',
      'fs_edit(.hanzo/settings.local.json)',
      'fs_edit(*/.hanzo/settings.local.json)',
      'fs_edit(.hanzo)',
      'fs_edit(*/.hanzo)',
    ])
    const policy = new PermissionPolicy([rule('fs_write', 'allow'), rule('exec', 'allow')], {
      defaults: [],
      mode: 'allow-all',
    })
    expect(judgingBuiltins(policy).evaluate('fs_write', {path: 'a/b/.hanzo/settings.local.json'})).toEqual({
      mode: 'deny',
      reason:
        '"fs_write(*/.hanzo/settings.local.json)" is protected: hanzo-dev never lets a tool write the files that configure it',
      rule: {mode: 'deny', pattern: 'fs_write(*/.hanzo/settings.local.json)', tier: 'protected'},
    })
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'echo {} > .hanzo/settings.json'})).toMatchObject({
      mode: 'deny',
      reason: expect.stringContaining('(the command writes .hanzo/settings.json)'),
    })
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'rm -rf ./.hanzo/'})).toMatchObject({
      mode: 'deny',
      rule: {pattern: 'fs_write(.hanzo)'},
    })
    expect(judgingBuiltins(policy).evaluate('fs_write', {path: '.hanzo/notes.md'}).mode).toBe('allow')
  })

  it("ships deny rules for git's config, commondir and hooks, in nested repositories too", () => {
    const policy = new PermissionPolicy([rule('fs_write', 'allow'), rule('fs_edit', 'allow'), rule('exec', 'allow')], {
      defaults: [],
      mode: 'allow-all',
    })
    for (const path of [
      '.git/config',
      '.git/config.worktree',
      '.git/commondir',
      '.git/hooks',
      '.git/hooks/pre-commit',
      'vendor/x/.git/hooks/post-checkout',
      'vendor/x/.git/config',
    ]) {
      expect(judgingBuiltins(policy).evaluate('fs_write', {path}), path).toMatchObject({
        mode: 'deny',
        rule: {tier: 'protected'},
      })
      expect(judgingBuiltins(policy).evaluate('fs_edit', {path}), path).toMatchObject({
        mode: 'deny',
        rule: {tier: 'protected'},
      })
    }

    expect(
      judgingBuiltins(policy).evaluate('exec', {command: 'echo "[core] fsmonitor = evil" >> .git/config'}),
    ).toMatchObject({mode: 'deny', rule: {pattern: 'fs_write(.git/config)'}})
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'cp evil .git/hooks/pre-commit'})).toMatchObject({
      mode: 'deny',
      rule: {pattern: 'fs_write(.git/hooks/pre-commit)'},
    })
    expect(judgingBuiltins(policy).evaluate('fs_write', {path: '.git/info/exclude'}).mode).toBe('allow')
    expect(judgingBuiltins(policy).evaluate('exec', {command: "echo 'alias ls=rm' > ~/.bashrc"}).mode).toBe('allow')
  })

  it('makes deny rules for directories, with everything below them', () => {
    const extra = protectedPathRules({
      protectedDirs: ['/w/p/conf', '/w/main/.git/modules/lib/hooks'],
      protectedFiles: [],
      workspaceRoot: '/w/p',
    })
    expect(extra.map(({pattern}) => pattern).filter((p) => p.startsWith('fs_write'))).toEqual([
      'fs_write(conf)',
      'fs_write(conf/*)',
      'fs_write(/w/p/conf)',
      'fs_write(/w/p/conf/*)',
      'fs_write(/w/main/.git/modules/lib/hooks)',
      'fs_write(/w/main/.git/modules/lib/hooks/*)',
    ])
    const policy = new PermissionPolicy([rule('fs_write', 'allow')], {mode: 'allow-all', protected: extra})
    expect(judgingBuiltins(policy).evaluate('fs_write', {path: 'conf/settings.json'})).toMatchObject({
      mode: 'deny',
      rule: {tier: 'protected'},
    })
  })

  it('makes deny rules for more files, relative to the workspace when inside it and absolute', () => {
    expect(
      protectedPathRules({
        protectedFiles: ['/home/u/.config/hanzo/credentials.json', '/etc/hanzo/trust.json'],
        workspaceRoot: '/home/u/',
      }).map(({mode, pattern}) => `${mode} ${pattern}`),
    ).toEqual([
      'deny fs_write(.config/hanzo/credentials.json)',
      'deny fs_write(/home/u/.config/hanzo/credentials.json)',
      'deny fs_write(/etc/hanzo/trust.json)',
      'deny fs_edit(.config/hanzo/credentials.json)',
      'deny fs_edit(/home/u/.config/hanzo/credentials.json)',
      'deny fs_edit(/etc/hanzo/trust.json)',
    ])
    expect(
      protectedPathRules({protectedFiles: ['C:\\Users\\u\\hanzo\\settings.json'], workspaceRoot: 'C:\\Users\\u'})[0]
        .pattern,
    ).toBe('fs_write(hanzo/settings.json)')
  })

  it('takes the added rules as protected ones', () => {
    const extra = protectedPathRules({
      protectedFiles: ['/home/u/.config/hanzo/settings.json'],
      workspaceRoot: '/home/u',
    })
    const policy = new PermissionPolicy([rule('fs_edit', 'allow'), rule('exec', 'allow')], {
      mode: 'allow-all',
      protected: extra,
    })
    expect(judgingBuiltins(policy).evaluate('fs_edit', {path: '.config/hanzo/settings.json'})).toMatchObject({
      mode: 'deny',
      rule: {tier: 'protected'},
    })
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'cp x ~/.config/hanzo/settings.json'})).toMatchObject({
      mode: 'deny',
      rule: {pattern: 'fs_write(/home/u/.config/hanzo/settings.json)'},
    })
    expect(judgingBuiltins(policy).evaluate('exec', {command: 'cp x ~/.config/hanzo/other.json'}).mode).toBe('allow')
  })
})
