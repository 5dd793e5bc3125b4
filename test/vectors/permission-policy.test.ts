import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import type {PermissionMode, Tier} from '../../src/core/config/types.js'
import {PermissionPolicy, type SessionPermissionMode} from '../../src/core/permissions/index.js'
import {REPO_ROOT} from '../helpers/cli.js'
import {callFacts} from '../helpers/tool-calls.js'

interface Vector {
  name: string
  description: string
  rules: Array<{pattern: string; mode: PermissionMode; tier: Tier}>
  defaults?: Array<{pattern: string; mode: PermissionMode}>
  protected?: Array<{pattern: string}>
  mode?: SessionPermissionMode
  tool: string
  input?: Record<string, unknown>
  canonicalPath?: string | null
  mutating?: boolean
  expect: {mode: PermissionMode; rule: string | null; tier?: Tier | 'default' | 'protected'}
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'permission-policy.json'), 'utf8')) as {
  cases: Vector[]
}

describe('permission-policy vectors (HIP-301 §7)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    const rules = vector.rules.map((rule) => ({...rule, file: `/${rule.tier}/settings.json`}))
    const policy = new PermissionPolicy(rules, {
      defaults: vector.defaults ?? [],
      mode: vector.mode,
      protected: vector.protected,
    })
    // A tool not known to be read-only counts as mutating (README: `mutating` defaults to true).
    // The call's subject is what the tool of that name says of the input (a built-in's; others say nothing).
    const result = policy.evaluate(
      vector.tool,
      callFacts(vector.tool, vector.input, {canonicalPath: vector.canonicalPath, mutating: vector.mutating ?? true}),
    )
    expect({mode: result.mode, rule: result.rule?.pattern ?? null}).toEqual({
      mode: vector.expect.mode,
      rule: vector.expect.rule,
    })
    if (vector.expect.tier) expect(result.rule?.tier).toBe(vector.expect.tier)
    if (result.mode === 'deny') expect(result.reason).toBeTruthy()
    // README: a hostile case is an attack on the rules, which never ends in allow.
    if (vector.name.startsWith('hostile-')) expect(vector.expect.mode).not.toBe('allow')
  })
})
