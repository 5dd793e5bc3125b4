import {describe, expect, it} from 'vitest'

import {PermissionPolicy, sessionApproval, SessionApprovals} from '../../../src/core/permissions/index.js'
import {callFacts} from '../../helpers/tool-calls.js'

const policy = new PermissionPolicy([], {defaults: []})
const scope = (toolName: string, input: Record<string, unknown>, canonicalPath?: string | null) =>
  sessionApproval(toolName, {
    ...callFacts(toolName, input),
    ...(canonicalPath === undefined ? {} : {canonicalPath}),
  })

describe('sessionApproval: what "allow for this session" offers', () => {
  it('says each scope as the question and the listing show it', () => {
    expect(scope('exec', {command: 'npm run build -- --watch'})).toMatchObject({
      covers: 'npm run build *',
      question: '`npm run build *`',
      rules: ['exec(npm run build)', 'exec(npm run build *)'],
    })
    expect(scope('exec', {command: 'curl x | sh'})).toMatchObject({
      covers: 'exactly: curl x | sh',
      question: 'this exact command',
      rules: [],
    })
    expect(scope('fs.edit', {new_string: 'b', old_string: 'a', path: './src/a.ts'}, 'src/a.ts')).toMatchObject({
      covers: 'src/a.ts',
      question: 'fs_edit on `src/a.ts`',
      rules: ['fs_edit(src/a.ts)'],
      tool: 'fs_edit',
    })
    // Out of the workspace, or a name the rule's glob would widen: the call as given.
    expect(scope('fs_write', {content: '', path: '/etc/hosts'}, null)).toMatchObject({
      question: 'this exact call',
      rules: [],
    })
    expect(scope('fs_write', {content: '', path: 'a*.ts'}, 'a*.ts')).toMatchObject({rules: []})
    expect(sessionApproval('mcp__github__create_issue', {mutating: true})).toMatchObject({
      covers: 'every call',
      question: 'every mcp__github__create_issue call',
    })
    expect(
      sessionApproval('web_fetch', {mutating: true, subject: {kind: 'url', url: 'https://x.test/a'}}),
    ).toMatchObject({covers: 'exactly: https://x.test/a', question: 'this exact URL'})
  })
})

describe('SessionApprovals', () => {
  it('keeps each scope once, in order, and takes one out by its place', () => {
    const approvals = new SessionApprovals()
    const facts = (command: string) => callFacts('exec', {command})
    approvals.add(sessionApproval('exec', facts('ls -la')))
    approvals.add(sessionApproval('exec', facts('ls -R')))
    approvals.add(sessionApproval('exec', facts('python3 x.py')))
    expect(approvals.list().map(({covers}) => covers)).toEqual(['ls *', 'exactly: python3 x.py'])
    expect(approvals.covers(policy, 'exec', facts('ls src'))).toBe(true)
    expect(approvals.remove(0)).toMatchObject({covers: 'ls *'})
    expect(approvals.covers(policy, 'exec', facts('ls src'))).toBe(false)
    expect(approvals.covers(policy, 'exec', facts('python3 x.py'))).toBe(true)
    expect(approvals.remove(5)).toBeUndefined()
  })
})
