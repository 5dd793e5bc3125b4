import {describe, expect, it} from 'vitest'

import type {PermissionDecision, PermissionPrompter, PermissionRequestContext} from '../../../src/core/agent/types.js'
import type {PermissionRule} from '../../../src/core/config/types.js'
import {
  type PermissionAuditRecord,
  type PermissionCheck,
  PermissionGate,
  PermissionPolicy,
  SessionApprovals,
  type SessionPermissionMode,
} from '../../../src/core/permissions/index.js'
import {callFacts} from '../../helpers/tool-calls.js'

const SECRET = 'sk-test-secret-4242'

/** Answers with the scripted decisions in order and remembers what it was asked. */
class ScriptedPrompter implements PermissionPrompter {
  readonly asked: Array<{toolName: string; input: Record<string, unknown>; sessionScope?: string}> = []
  constructor(private readonly answers: Array<PermissionDecision | Error>) {}

  async requestPermission(
    toolName: string,
    input: Record<string, unknown>,
    context?: PermissionRequestContext,
  ): Promise<PermissionDecision> {
    this.asked.push({input, sessionScope: context?.sessionScope, toolName})
    const answer = this.answers.shift()
    if (answer === undefined) throw new Error(`unexpected prompt for ${toolName}`)
    if (answer instanceof Error) throw answer
    return answer
  }
}

function setup(
  options: {
    rules?: Array<Pick<PermissionRule, 'pattern' | 'mode'>>
    answers?: Array<PermissionDecision | Error>
    mode?: SessionPermissionMode
    approvals?: SessionApprovals
  } = {},
) {
  const rules = (options.rules ?? []).map((rule) => ({
    ...rule,
    file: '/home/u/.config/hanzo/settings.json',
    tier: 'user' as const,
  }))
  const prompter = new ScriptedPrompter(options.answers ?? [])
  const records: PermissionAuditRecord[] = []
  const gate = new PermissionGate({
    ...(options.approvals ? {approvals: options.approvals} : {}),
    audit: {append: async (record) => void records.push(record)},
    now: () => new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
    policy: new PermissionPolicy(rules, {defaults: [], mode: options.mode}),
    prompter,
  })
  return {gate, prompter, records}
}

/** A check as the pipeline makes it: with what the built-in tool says of the call. */
const check = (toolName: string, input: Record<string, unknown>, sessionId = 's1'): PermissionCheck => ({
  ...callFacts(toolName, input),
  input,
  sessionId,
  toolName,
})
const exec = (command: string, sessionId = 's1'): PermissionCheck => check('exec', {command}, sessionId)
const write = (path: string): PermissionCheck => check('fs_write', {content: SECRET, path})

describe('PermissionGate', () => {
  it('allows what the policy allows without asking, with one audit record', async () => {
    const {gate, prompter, records} = setup({rules: [{mode: 'allow', pattern: 'exec(git status*)'}]})
    expect(await gate.check(exec('git status'))).toEqual({allowed: true})
    expect(prompter.asked).toEqual([])
    expect(records).toEqual([
      {
        decision: 'allow',
        mode: 'allow',
        reason: null,
        rule_matched: 'exec(git status*)',
        session_id: 's1',
        timestamp: '2026-01-02T03:04:05.000Z',
        tool_name: 'exec',
      },
    ])
  })

  it('denies what the policy denies, with the policy reason', async () => {
    const {gate, prompter, records} = setup({rules: [{mode: 'deny', pattern: 'exec(rm *)'}]})
    const outcome = await gate.check(exec('ls; rm -rf /'))
    expect(outcome).toEqual({
      allowed: false,
      reason: expect.stringContaining('"exec(rm *)" is denied by the user settings'),
    })
    expect(prompter.asked).toEqual([])
    expect(records).toMatchObject([
      {decision: 'deny', mode: 'deny', reason: (outcome as {reason: string}).reason, rule_matched: 'exec(rm *)'},
    ])
  })

  it('asks on prompt and passes the tool name and input to the prompter', async () => {
    const {gate, prompter, records} = setup({answers: [{scope: 'once', type: 'allow'}]})
    expect(await gate.check(exec('make'))).toEqual({allowed: true})
    expect(prompter.asked).toEqual([{input: {command: 'make'}, sessionScope: 'this exact command', toolName: 'exec'}])
    expect(records).toMatchObject([{decision: 'allow', mode: 'prompt', reason: 'approved once', rule_matched: null}])
  })

  it('asks again after "allow once"', async () => {
    const {gate, prompter} = setup({
      answers: [
        {scope: 'once', type: 'allow'},
        {scope: 'once', type: 'allow'},
      ],
    })
    await gate.check(exec('make'))
    await gate.check(exec('make'))
    expect(prompter.asked).toHaveLength(2)
  })

  it('offers the prefix rule of a safe command, says so, and then allows what it said only', async () => {
    const approvals = new SessionApprovals()
    const {gate, prompter, records} = setup({
      answers: [
        {scope: 'session', type: 'allow'},
        ...Array.from({length: 3}, () => ({scope: 'once', type: 'allow'}) as const),
      ],
      approvals,
    })
    await gate.check(exec('ls -la'))
    expect(prompter.asked).toEqual([{input: {command: 'ls -la'}, sessionScope: '`ls *`', toolName: 'exec'}])
    for (const covered of ['ls -R', 'ls', 'ls -la', "ls 'my dir'"])
      expect(await gate.check(exec(covered))).toEqual({allowed: true})
    expect(prompter.asked).toHaveLength(1)
    // Another program, a line with another part, a program whose name only starts the same.
    for (const asked of ['rm x', 'ls -R && rm x', 'lsblk']) await gate.check(exec(asked))
    expect(prompter.asked.map(({input}) => input.command)).toEqual(['ls -la', 'rm x', 'ls -R && rm x', 'lsblk'])
    expect(prompter.asked.slice(1).map(({sessionScope}) => sessionScope)).toEqual([
      'this exact command',
      'this exact command',
      '`lsblk *`',
    ])
    expect(records.map((record) => record.reason)).toEqual([
      'approved for this session',
      ...Array.from({length: 4}, () => 'approved earlier in this session'),
      ...Array.from({length: 3}, () => 'approved once'),
    ])
    expect(approvals.list()).toEqual([
      expect.objectContaining({covers: 'ls *', rules: ['exec(ls)', 'exec(ls *)'], tool: 'exec'}),
    ])
  })

  it('covers the subcommand of a tool that has them, and the parts of a line that each approval allows', async () => {
    const {gate, prompter} = setup({
      answers: [
        {scope: 'session', type: 'allow'},
        {scope: 'session', type: 'allow'},
        {scope: 'once', type: 'allow'},
      ],
    })
    await gate.check(exec('npm test'))
    await gate.check(exec('git diff --stat'))
    expect(prompter.asked.map(({sessionScope}) => sessionScope)).toEqual(['`npm test *`', '`git diff *`'])
    expect(await gate.check(exec('npm test -- --watch'))).toEqual({allowed: true})
    expect(await gate.check(exec('git diff HEAD~1 && npm test'))).toEqual({allowed: true})
    await gate.check(exec('npm publish'))
    expect(prompter.asked).toHaveLength(3)
  })

  it('offers only the exact command when widening it could run anything, or when the scanner cannot read it', async () => {
    const {gate, prompter} = setup({
      answers: [
        {scope: 'session', type: 'allow'},
        {scope: 'session', type: 'allow'},
        {scope: 'once', type: 'allow'},
        {scope: 'once', type: 'allow'},
      ],
    })
    await gate.check(exec('python3 build.py'))
    await gate.check(exec('ls $DIR'))
    expect(await gate.check(exec('python3 build.py'))).toEqual({allowed: true})
    expect(await gate.check(exec('ls $DIR'))).toEqual({allowed: true})
    await gate.check(exec('python3 evil.py'))
    await gate.check(exec('ls $OTHER'))
    expect(prompter.asked.map(({input}) => input.command)).toEqual([
      'python3 build.py',
      'ls $DIR',
      'python3 evil.py',
      'ls $OTHER',
    ])
    expect(prompter.asked.every(({sessionScope}) => sessionScope === 'this exact command')).toBe(true)
  })

  it('lets a deny rule stand before a session approval', async () => {
    const {gate, prompter} = setup({
      answers: [{scope: 'session', type: 'allow'}],
      rules: [{mode: 'deny', pattern: 'exec(ls *secret*)'}],
    })
    await gate.check(exec('ls -la'))
    expect(await gate.check(exec('ls secret/'))).toEqual({
      allowed: false,
      reason: expect.stringContaining('"exec(ls *secret*)" is denied'),
    })
    expect(await gate.check(exec('ls $X'))).toMatchObject({allowed: false})
    expect(prompter.asked).toHaveLength(1)
  })

  it('remembers the same command in every session of the store, as the chat keeps it', async () => {
    const {gate, prompter} = setup({answers: [{scope: 'session', type: 'allow'}]})
    await gate.check(exec('npm test'))
    expect(await gate.check(exec('npm test', 's2'))).toEqual({allowed: true})
    expect(prompter.asked).toHaveLength(1)
  })

  it('remembers a file tool approval for the path, with either spelling of the tool', async () => {
    const {gate, prompter} = setup({
      answers: [
        {scope: 'session', type: 'allow'},
        {scope: 'once', type: 'allow'},
      ],
    })
    await gate.check(write('src/a.ts'))
    await gate.check({...write('src/a.ts'), toolName: 'fs.write'})
    // The file by its canonical path, however the call spells it.
    await gate.check({...write('./src/a.ts'), canonicalPath: 'src/a.ts'})
    await gate.check(write('src/b.ts'))
    expect(prompter.asked.map((ask) => ask.input.path)).toEqual(['src/a.ts', 'src/b.ts'])
    expect(prompter.asked.map((ask) => ask.sessionScope)).toEqual(['fs_write on `src/a.ts`', 'fs_write on `src/b.ts`'])
  })

  it('remembers a tool without a subject by its name alone', async () => {
    const {gate, prompter} = setup({answers: [{scope: 'session', type: 'allow'}]})
    const call = (title: string): PermissionCheck => ({
      input: {title},
      mutating: true,
      sessionId: 's1',
      toolName: 'mcp__github__create_issue',
    })
    await gate.check(call('one'))
    expect(await gate.check(call('two'))).toEqual({allowed: true})
    expect(prompter.asked).toHaveLength(1)
  })

  it('does not let an approval of an exec call without a command cover other commands', async () => {
    const {gate, prompter} = setup({
      answers: [
        {scope: 'session', type: 'allow'},
        {type: 'deny', reason: 'no'},
      ],
    })
    await gate.check(check('exec', {}))
    expect(await gate.check(exec('rm -rf ~'))).toEqual({allowed: false, reason: 'no'})
    expect(prompter.asked).toHaveLength(2)
  })

  it("passes the prompter's deny reason on", async () => {
    const {gate, records} = setup({answers: [{reason: 'the user denied it: not now', type: 'deny'}]})
    expect(await gate.check(exec('make'))).toEqual({allowed: false, reason: 'the user denied it: not now'})
    expect(records).toMatchObject([{decision: 'deny', mode: 'prompt', reason: 'the user denied it: not now'}])
  })

  it('treats escalate as a deny that says no one could approve it', async () => {
    const {gate, records} = setup({answers: [{type: 'escalate'}]})
    const outcome = await gate.check(exec('make'))
    expect(outcome).toEqual({allowed: false, reason: expect.stringMatching(/^no one could approve exec/)})
    expect(records).toMatchObject([{decision: 'deny', mode: 'prompt', reason: (outcome as {reason: string}).reason}])
  })

  it('records a deny and rethrows when the prompt fails (Ctrl-C)', async () => {
    const {gate, records} = setup({answers: [new Error('User force closed the prompt')]})
    await expect(gate.check(exec('make'))).rejects.toThrow('force closed')
    expect(records).toMatchObject([{decision: 'deny', reason: 'the permission prompt ended without an answer'}])
  })

  it('never asks in session mode deny and never overrides a deny in allow-all', async () => {
    const denying = setup({mode: 'deny'})
    expect(await denying.gate.check(exec('make'))).toEqual({
      allowed: false,
      reason: expect.stringContaining('permission mode deny'),
    })
    const allowing = setup({mode: 'allow-all', rules: [{mode: 'deny', pattern: 'fs_write(.env)'}]})
    expect(await allowing.gate.check(write('.env'))).toMatchObject({allowed: false})
    expect(await allowing.gate.check(write('a.txt'))).toEqual({allowed: true})
    expect(allowing.records.map((record) => [record.mode, record.decision, record.reason])).toEqual([
      ['deny', 'deny', expect.stringContaining('fs_write(.env)')],
      ['allow', 'allow', 'permission mode allow-all allows what would be asked'],
    ])
  })

  it('never lets an allow rule or allow-all write the settings files, however the path is spelled', async () => {
    const {gate, prompter, records} = setup({
      mode: 'allow-all',
      rules: [
        {mode: 'allow', pattern: 'fs_write'},
        {mode: 'allow', pattern: 'exec'},
      ],
    })
    expect(await gate.check(write('./.hanzo//settings.local.json'))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('protected'),
    })
    expect(await gate.check({...write('conf/s.json'), canonicalPath: '.hanzo/settings.json'})).toMatchObject({
      allowed: false,
    })
    expect(await gate.check(exec('echo {} | tee .hanzo/settings.json'))).toMatchObject({allowed: false})
    expect(prompter.asked).toEqual([])
    expect(records.map((record) => [record.decision, record.rule_matched])).toEqual([
      ['deny', 'fs_write(.hanzo/settings.local.json)'],
      ['deny', 'fs_write(.hanzo/settings.json)'],
      ['deny', 'fs_write(.hanzo/settings.json)'],
    ])
  })

  it('writes exactly one record per check, and never the tool input', async () => {
    const {gate, records} = setup({
      answers: [{scope: 'session', type: 'allow'}, {type: 'escalate'}],
      rules: [{mode: 'deny', pattern: 'exec(curl *)'}],
    })
    await gate.check(exec(`export TOKEN=${SECRET}; make`))
    await gate.check(exec(`export TOKEN=${SECRET}; make`))
    await gate.check(exec(`curl -H "Authorization: ${SECRET}" x`))
    await gate.check(write('a.txt'))
    expect(records).toHaveLength(4)
    for (const record of records) {
      expect(Object.keys(record).sort()).toEqual([
        'decision',
        'mode',
        'reason',
        'rule_matched',
        'session_id',
        'timestamp',
        'tool_name',
      ])
    }

    expect(JSON.stringify(records)).not.toContain(SECRET)
    expect(JSON.stringify(records)).not.toContain('a.txt')
  })

  it('denies what it would allow when the decision cannot be recorded, saying why; a deny stays a deny', async () => {
    const failing = (answers: PermissionDecision[] = []) =>
      new PermissionGate({
        audit: {append: async () => Promise.reject(new Error('cannot write the audit log /data/audit.jsonl (ENOSPC)'))},
        policy: new PermissionPolicy(
          [
            {file: 'settings.json', mode: 'allow', pattern: 'exec(git status*)', tier: 'user'},
            {file: 'settings.json', mode: 'deny', pattern: 'exec(rm *)', tier: 'user'},
          ],
          {defaults: []},
        ),
        prompter: new ScriptedPrompter(answers),
      })
    const reason =
      'cannot write the audit log /data/audit.jsonl (ENOSPC); a decision that is not in the audit log is a deny'
    expect(await failing().check(exec('git status'))).toEqual({allowed: false, reason})
    expect(await failing([{scope: 'session', type: 'allow'}]).check(exec('make'))).toEqual({allowed: false, reason})
    expect(await failing().check(exec('rm -rf /'))).toEqual({
      allowed: false,
      reason: expect.stringContaining('"exec(rm *)" is denied'),
    })
    // A prompt that ends without an answer (Ctrl-C) still ends the turn, recorded or not.
    await expect(failing([]).check(exec('make'))).rejects.toThrow('unexpected prompt for exec')
  })
})
