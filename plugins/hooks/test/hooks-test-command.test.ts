import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {runCli, unwrapped, useSandboxDirs} from '../../../test/helpers/cli.js'
import {script} from './hook-fixtures.js'

// `hooks test` through the built CLI (bin/run.js), with the hooks in the user's settings file.
const dirs = useSandboxDirs('hanzo-hooks-test-', 'project/.git', 'scripts', 'out')
const project = () => join(dirs.box.home, 'project')
const STACK = /\n\s+at .*(\.js|\.ts):\d+|node:internal/

function writeUserHooks(hooks: unknown[]): void {
  const dir = join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo')
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, 'settings.json'), JSON.stringify({hooks}))
}

const run = (args: string[]) => runCli(['hooks', 'test', ...args], {cwd: project(), env: dirs.box.env})

// Commands are bare script paths: the host hands plugins each command line with its arguments redacted.
function allowAndDeny() {
  const record = script(
    dirs.scripts,
    'record.sh',
    `printf %s "$HANZO_TOOL_INPUT" > '${dirs.out}/input'\npwd > '${dirs.out}/pwd'`,
  )
  const deny = script(dirs.scripts, 'deny.sh', 'echo "rm -rf is not allowed here" >&2\nexit 2')
  writeUserHooks([
    {command: record, event: 'pre_tool_use'},
    {command: deny, event: 'pre_tool_use', tool_pattern: 'exec'},
    {command: deny, event: 'post_tool_use'},
  ])
}

describe('hanzo-dev hooks test', () => {
  it('runs each matching hook and shows its verdict; exits 1 when one denies', async () => {
    allowAndDeny()
    const input = {command: 'rm -rf $(touch pwned) /'}
    const text = await run(['pre_tool_use', '--tool', 'exec', '--input', JSON.stringify(input)])
    expect(text.exitCode).toBe(1)
    expect(text.stdout).toMatch(/^pre_tool_use hooks for exec:\n/)
    expect(text.stdout).toMatch(/^✓ hooks\[0\] pre_tool_use \(user\) {2}allow {2}exit 0, \d+ ms$/m)
    expect(text.stdout).toMatch(
      /^✗ hooks\[1\] pre_tool_use \(user\) {2}deny {2}exit 2, \d+ ms\n {4}rm -rf is not allowed here$/m,
    )
    expect(text.stdout).toContain('→ denied: the exec call would be stopped')
    expect(JSON.parse(readFileSync(join(dirs.out, 'input'), 'utf8'))).toEqual(input)
    expect(readFileSync(join(dirs.out, 'pwd'), 'utf8').trim()).toBe(project())

    const json = await run(['pre_tool_use', '--tool', 'exec', '--input', JSON.stringify(input), '--json'])
    expect(json.exitCode).toBe(1)
    expect(JSON.parse(json.stdout)).toEqual({
      decision: 'deny',
      event: 'pre_tool_use',
      hooks: [
        {
          blocks: false,
          durationMs: expect.any(Number),
          exitCode: 0,
          label: 'hooks[0] pre_tool_use (user)',
          verdict: 'allow',
        },
        {
          blocks: true,
          durationMs: expect.any(Number),
          exitCode: 2,
          label: 'hooks[1] pre_tool_use (user)',
          reason: 'rm -rf is not allowed here',
          verdict: 'deny',
        },
      ],
      tool: 'exec',
    })
  })

  it('exits 0 when every matching hook allows, or none matches', async () => {
    allowAndDeny()
    const allowed = await run(['pre_tool_use', '--tool', 'fs.read', '--input', '{"path":"a.ts"}'])
    expect(allowed.exitCode).toBe(0)
    expect(allowed.stdout).toContain('→ allowed: the fs.read call would go ahead')

    const none = await run(['session_start'])
    expect(none).toMatchObject({exitCode: 0, stdout: 'No session_start hooks (settings.hooks).'})
  })

  it('tests a user_prompt_submit hook with --prompt', async () => {
    const guard = script(
      dirs.scripts,
      'guard.sh',
      'grep -q production && { echo "ask the on-call first" >&2; exit 2; }\nexit 0',
    )
    writeUserHooks([{command: guard, event: 'user_prompt_submit'}])
    const denied = await run(['user_prompt_submit', '--prompt', 'deploy to production'])
    expect(denied.exitCode).toBe(1)
    expect(denied.stdout).toContain('ask the on-call first')
    expect(denied.stdout).toContain('→ denied: the prompt would be stopped')
    expect((await run(['user_prompt_submit', '--prompt', 'fix the tests'])).exitCode).toBe(0)
  })

  it('refuses a tool event without --tool and an --input that is not a JSON object, in one line', async () => {
    writeUserHooks([])
    for (const [args, message] of [
      [['pre_tool_use'], 'pre_tool_use hooks are chosen by tool: name one with --tool (e.g. --tool exec)'],
      [['pre_tool_use', '--tool', 'exec', '--input', '{"command":'], '--input is not JSON'],
      [['post_tool_use', '--tool', 'exec', '--input', '[1]'], '--input must be a JSON object'],
    ] as const) {
      const {exitCode, stderr} = await run([...args])
      expect(exitCode).toBe(2)
      expect(unwrapped(stderr)).toContain(message)
      expect(stderr).not.toMatch(STACK)
    }
  })

  it('has help with examples and --json', async () => {
    const {exitCode, stdout} = await run(['--help'])
    expect(exitCode).toBe(0)
    expect(stdout).toContain('$ hanzo-dev hooks test pre_tool_use --tool exec')
    expect(stdout).toContain('--json')
  })
})
