import {mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {PassThrough} from 'node:stream'
import {Chalk} from 'chalk'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {createPrompter, NonInteractivePrompter, TtyPrompter} from '../../../src/adapters/prompt/index.js'
import {builtinTools} from '../../../src/adapters/tools/index.js'
import {callPreview, describeCall} from '../../../src/core/tools/call-description.js'

describe('NonInteractivePrompter', () => {
  it('denies and says how to allow the call next time: the config set commands of the rules', async () => {
    const advice = {kind: 'rules' as const, rules: ['exec(npm run build)', "exec(echo it's)"]}
    const decision = await new NonInteractivePrompter().requestPermission(
      'exec',
      {command: "npm run build && echo it's"},
      {advice},
    )
    expect(decision).toEqual({
      reason:
        "exec needs approval and no one can be asked in this run. Run with --permission-mode allow-all, or allow it from now on with: hanzo-dev config set 'permissions.exec(npm run build)' allow --tier local && hanzo-dev config set 'permissions.exec(echo it'\\''s)' allow --tier local",
      type: 'deny',
    })
  })

  it('allowed by the rules but asked for its own reason (a changed MCP tool): the reason says what to run, no empty command', async () => {
    const decision = await new NonInteractivePrompter().requestPermission(
      'mcp__s__t',
      {},
      {advice: {kind: 'rules', rules: []}, notice: 'it changed; approve it with hanzo-dev mcp tools s --approve'},
    )
    expect(decision).toEqual({
      reason:
        'mcp__s__t needs approval (it changed; approve it with hanzo-dev mcp tools s --approve) and no one can be asked in this run. Approve it in a run on a terminal, or as the reason says.',
      type: 'deny',
    })
  })

  it('says why no rule can allow it, and whether --permission-mode allow-all would', async () => {
    const prompter = createPrompter({interactive: false})
    const noRule = await prompter.requestPermission(
      'exec',
      {},
      {advice: {kind: 'none', sessionMode: true, why: 'no allow rule matches this command line'}},
    )
    expect(noRule).toMatchObject({
      reason: expect.stringContaining(
        'No allow rule matches this command line. Approve it in a run on a terminal, or run with --permission-mode allow-all.',
      ),
    })
    const person = await prompter.requestPermission(
      'exec',
      {},
      {advice: {kind: 'none', sessionMode: false, why: 'a deny rule may match'}},
    )
    expect(person).toMatchObject({
      reason: expect.stringContaining('A deny rule may match: no rule, mode or person can allow it'),
    })
    expect((person as {reason: string}).reason).not.toContain('allow-all')
  })
})

describe('TtyPrompter', () => {
  const ENTER = '\r'
  const DOWN = '\u001B[B'

  /** Types each answer's keys once the screen shows its question. */
  function terminal(...answers: Array<{question: string; keys: string[]}>) {
    const input = new PassThrough()
    const output = new PassThrough()
    // Inquirer pipes into the output and ends it after each prompt; pipe never ends process.stdout
    // or process.stderr, so a terminal lives on: this stream must too.
    output.end = () => output
    let screen = ''
    let unanswered = ''
    output.on('data', (chunk: Buffer) => {
      screen += chunk.toString()
      unanswered += chunk.toString()
      const next = answers[0]
      if (next === undefined || !unanswered.includes(next.question)) return
      answers.shift()
      unanswered = ''
      setImmediate(() => {
        for (const key of next.keys) input.write(key)
      })
    })
    return {input, output, screen: () => screen}
  }

  it('allows once on the first choice and shows the tool and the call’s title on one line', async () => {
    const streams = terminal({keys: [ENTER], question: 'Allow exec'})
    const advice = {kind: 'none', sessionMode: true, why: ''} as const
    const decision = await new TtyPrompter(streams).requestPermission(
      'exec',
      {command: 'git push\n--force'},
      {advice, title: 'git push\n--force'},
    )
    expect(decision).toEqual({scope: 'once', type: 'allow'})
    expect(streams.screen()).toContain('Allow exec: git push ⏎ --force?')
  })

  it('without a title, shows the input as JSON', async () => {
    const streams = terminal({keys: [ENTER], question: 'Allow mcp__x__y'})
    await new TtyPrompter(streams).requestPermission('mcp__x__y', {a: 1})
    expect(streams.screen()).toContain('Allow mcp__x__y: {"a":1}?')
  })

  it('allows for the session on the second choice, which says what that allows', async () => {
    const streams = terminal({keys: [DOWN, ENTER], question: 'Allow fs_write'})
    const advice = {kind: 'none', sessionMode: true, why: ''} as const
    expect(
      await new TtyPrompter(streams).requestPermission(
        'fs_write',
        {path: 'a.txt'},
        {advice, sessionScope: 'fs_write on `a.txt`'},
      ),
    ).toEqual({scope: 'session', type: 'allow'})
    expect(streams.screen()).toContain('Allow fs_write on `a.txt` for this session')
  })

  it('denies on the third choice with the reason typed', async () => {
    const streams = terminal(
      {keys: [DOWN, DOWN, ENTER], question: 'Allow exec'},
      {keys: [...'too risky', ENTER], question: 'Reason'},
    )
    expect(await new TtyPrompter(streams).requestPermission('exec', {command: 'rm -rf build'})).toEqual({
      reason: 'the user denied it: too risky',
      type: 'deny',
    })
  })

  it('asks one question at a time when calls run in parallel', async () => {
    const streams = terminal({keys: [ENTER], question: 'Allow exec'}, {keys: [DOWN, ENTER], question: 'Allow fs_write'})
    const prompter = new TtyPrompter(streams)
    const decisions = await Promise.all([
      prompter.requestPermission('exec', {command: 'make'}),
      prompter.requestPermission('fs_write', {path: 'a.txt'}),
    ])
    expect(decisions).toEqual([
      {scope: 'once', type: 'allow'},
      {scope: 'session', type: 'allow'},
    ])
  })

  describe('shows what a file call would change before asking', () => {
    let cwd: string
    beforeEach(() => {
      cwd = realpathSync(mkdtempSync(join(tmpdir(), 'hanzo-prompt-')))
    })
    afterEach(() => rmSync(cwd, {force: true, recursive: true}))

    const ask = async (toolName: string, input: Record<string, unknown>, style = new Chalk({level: 0})) => {
      const streams = terminal({keys: [ENTER], question: `Allow ${toolName}`})
      // As the pipeline asks: with the tool's title and preview of the call.
      const tool = builtinTools().find(({name}) => name === toolName)!
      const context = {
        advice: {kind: 'none', sessionMode: true, why: ''},
        preview: callPreview(tool, input, {cwd, sessionId: 's', signal: new AbortController().signal}),
        title: describeCall(tool, input).title,
      } as const
      expect(await new TtyPrompter({...streams, style}).requestPermission(toolName, input, context)).toEqual({
        scope: 'once',
        type: 'allow',
      })
      const screen = streams.screen()
      // What was drawn before the question's line.
      return screen.slice(0, screen.lastIndexOf('\n', screen.indexOf(`Allow ${toolName}`)) + 1)
    }

    it('the diff of an edit, against the file, with its line numbers', async () => {
      writeFileSync(join(cwd, 'a.txt'), `${['one', 'two', 'three', 'four', 'five', 'six'].join('\n')}\n`)
      const before = await ask('fs_edit', {new_string: 'FIVE', old_string: 'five', path: 'a.txt'})
      expect(before).toContain(
        ['  @@ -2,5 +2,5 @@', '   two', '   three', '   four', '  -five', '  +FIVE', '   six'].join('\n'),
      )
    })

    it('coloured when the style has colour, and the model’s escape sequences defused', async () => {
      writeFileSync(join(cwd, 'a.txt'), 'keep\nold\n')
      const before = await ask(
        'fs_write',
        {content: 'keep\nnew \u001B[2Jcleared\n', path: 'a.txt'},
        new Chalk({level: 1}),
      )
      expect(before).toContain('\u001B[31m-old\u001B[39m')
      expect(before).toContain('\u001B[32m+new ^[[2Jcleared\u001B[39m')
      expect(before).not.toContain('\u001B[2J')
    })

    it('the head of a new file, capped', async () => {
      const lines = Array.from({length: 50}, (_, i) => `line ${i + 1}`)
      const before = await ask('fs_write', {content: `${lines.join('\n')}\n`, path: 'new/b.txt'})
      expect(before).toContain('  new file, 50 lines:\n  +line 1\n  +line 2\n')
      expect(before).toContain('  +line 20\n  … 30 more lines\n')
      expect(before).not.toContain('line 21')
    })

    it('what an edit asks for when the text is not in the file', async () => {
      writeFileSync(join(cwd, 'a.txt'), 'nothing here\n')
      const before = await ask('fs_edit', {new_string: 'b', old_string: 'a\n', path: 'a.txt'})
      expect(before).toContain('  -a\n  +b')
    })

    it('nothing for other tools', async () => {
      expect(await ask('exec', {command: 'ls'})).toBe('')
    })
  })

  it('with the run’s interrupt, Ctrl-C denies the call, aborts the run, and asks nothing more', async () => {
    const streams = terminal({keys: ['\u0003'], question: 'Allow exec'})
    const interrupt = new AbortController()
    const prompter = new TtyPrompter({...streams, interrupt})
    const decisions = await Promise.all([
      prompter.requestPermission('exec', {command: 'make'}),
      prompter.requestPermission('fs_write', {content: '', path: 'a.txt'}),
    ])
    expect(decisions).toEqual([
      {reason: expect.stringContaining('cancelled'), type: 'deny'},
      {reason: expect.stringContaining('cancelled'), type: 'deny'},
    ])
    expect(interrupt.signal.aborted).toBe(true)
    expect(streams.screen()).not.toContain('Allow fs_write')
  })

  it('without one, Ctrl-C rejects, as inquirer does', async () => {
    const streams = terminal({keys: ['\u0003'], question: 'Allow exec'})
    await expect(new TtyPrompter(streams).requestPermission('exec', {command: 'make'})).rejects.toMatchObject({
      name: 'ExitPromptError',
    })
  })
})
