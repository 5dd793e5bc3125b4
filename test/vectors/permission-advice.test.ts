import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import type {PermissionMode, Tier} from '../../src/core/config/types.js'
import {allowAdvice, PermissionPolicy} from '../../src/core/permissions/index.js'
import {REPO_ROOT} from '../helpers/cli.js'
import {callFacts} from '../helpers/tool-calls.js'

interface Vector {
  name: string
  description: string
  rules?: Array<{pattern: string; mode: PermissionMode; tier: Tier}>
  tool: string
  input?: Record<string, unknown>
  canonicalPath?: string | null
  expect: {rules: string[]} | {none: true; sessionMode: boolean}
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'permission-advice.json'), 'utf8')) as {
  cases: Vector[]
}
const FAKE_SECRET = /(?:sk|tok|ghp)[-_]\S*secret/i

describe('permission-advice vectors', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    const rules = (vector.rules ?? []).map((rule) => ({...rule, file: `/${rule.tier}/settings.json`}))
    const policy = new PermissionPolicy(rules, {defaults: []})
    const facts = callFacts(vector.tool, vector.input, {canonicalPath: vector.canonicalPath})
    const advice = allowAdvice(policy, vector.tool, facts)
    if ('rules' in vector.expect) {
      expect(advice).toEqual({kind: 'rules', rules: vector.expect.rules})
      // README: added at the end of the local settings the rules allow the call, and each of them is needed.
      const local = (patterns: string[]) =>
        patterns.map((pattern) => ({
          file: '/local/settings.json',
          mode: 'allow' as const,
          pattern,
          tier: 'local' as const,
        }))
      const allowedWith = (patterns: string[]) =>
        new PermissionPolicy([...rules, ...local(patterns)], {defaults: []}).evaluate(vector.tool, facts).mode
      expect(allowedWith(vector.expect.rules)).toBe('allow')
      for (const left of vector.expect.rules)
        expect(allowedWith(vector.expect.rules.filter((rule) => rule !== left)), `without ${left}`).not.toBe('allow')
    } else {
      expect(advice).toMatchObject({kind: 'none', sessionMode: vector.expect.sessionMode, why: expect.any(String)})
    }

    expect(JSON.stringify(advice)).not.toMatch(FAKE_SECRET)
  })
})
