import {execFileSync} from 'node:child_process'
import {chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'

/**
 * Issue 13, items 1, 2 and the first of 8, end to end: a scripted model asks for each hostile
 * command in the mode the issue names, and each comes back denied, with its marker proving it
 * did not run (item 1: a file it would create; item 2: the file its `rm` would remove, or the
 * content of the file a denied write would replace). The policy's vectors
 * (test-vectors/permission-policy.json, `hostile-...`) hold the same cases and more.
 */

/** Item 1, default mode off a terminal: each creates its marker when it runs. */
const ALLOWED_TOO_MUCH = [
  'ls=1 touch M1',
  'ls `ls \\`touch M2\\``',
  'git status "`git status \\`touch M3\\``"',
  '"git status/x"',
  `npm test --node-options="--import=data:text/javascript,import{writeFileSync}from'node:fs';writeFileSync('M5','')"`,
]

/** Item 2 (and 8's first case), allow-all with `exec(rm*)` denied: case i removes `x<i>` when it runs. */
const HIDDEN_RM = [
  'flock F rm -f x0',
  'taskset -c 0 rm -f x1',
  'setpriv rm -f x2',
  'prlimit --nofile=64 rm -f x3',
  "script -qc 'rm -f x4' /dev/null",
  'strace -f -o /dev/null rm -f x5',
  'unshare rm -f x6',
  "su -c 'rm -f x7'",
  "$'\\0'rm -f x8",
  "$'\\c@'rm -f x9",
  "$'\\x00'rm -f x10",
  'echo `echo \\`rm -f x11\\``',
  'echo rm -f x12 | sh',
  "sh <<<'rm -f x13'",
  '. <(echo rm -f x14)',
  // A variable whose value git runs (it appends its own arguments), and one that makes bash load a file.
  "GIT_SSH_COMMAND='rm -f x15' git fetch ssh://example.invalid/repo",
  "GIT_EDITOR='rm -f x16' git commit --allow-empty",
  'BASH_ENV=./remove-x17.sh bash -c true',
]

/** Item 2, allow-all with `fs_write(secret.txt)` denied: each would replace secret.txt. */
const HIDDEN_WRITES = ['sort -o secret.txt other.txt', 'cp -r dir/. .', 'git checkout -- secret.txt']

describe('hanzo-dev run: hostile commands the review found (issue 13)', () => {
  const dirs = useSandboxDirs('hanzo-hostile-', 'project')

  async function run(commands: string[], ...flags: string[]): Promise<string[]> {
    const script: Script = {
      turns: [...commands.map((command) => ({tool_calls: [{arguments: {command}, name: 'exec'}]})), {text: 'Done.'}],
    }
    const file = join(dirs.box.home, 'script.json')
    writeFileSync(file, JSON.stringify(script))
    const result = await runCli(
      ['run', 'try these', '--fake-model', file, '--output-format', 'stream-json', ...flags],
      {cwd: dirs.project, env: dirs.box.env},
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const events = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as {type: string; error?: string})
    return events.filter((event) => event.type === 'tool_result').map((event) => event.error ?? 'no error: it ran')
  }

  it('denies each, and none of them runs', async () => {
    const {project} = dirs
    const git = (...args: string[]) =>
      execFileSync('git', args, {
        cwd: project,
        env: {
          ...dirs.box.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      })
    git('init', '-q')
    writeFileSync(join(project, 'secret.txt'), 'committed\n')
    git('add', 'secret.txt')
    git('commit', '-qm', 'secret')
    writeFileSync(join(project, 'secret.txt'), 'original\n')
    writeFileSync(join(project, 'other.txt'), 'pwned\n')
    mkdirSync(join(project, 'dir'))
    writeFileSync(join(project, 'dir', 'secret.txt'), 'pwned\n')
    mkdirSync(join(project, 'git status'))
    writeFileSync(join(project, 'git status', 'x'), '#!/bin/sh\ntouch M4\n')
    chmodSync(join(project, 'git status', 'x'), 0o755)
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({name: 'p', scripts: {test: 'node -e 0'}, version: '1.0.0'}),
    )
    for (const i of HIDDEN_RM.keys()) writeFileSync(join(project, `x${i}`), '')
    writeFileSync(join(project, 'remove-x17.sh'), 'rm -f x17\n')
    mkdirSync(join(project, '.hanzo'))
    const permissions = {
      'exec(git status*)': 'allow',
      'exec(ls*)': 'allow',
      'exec(npm test*)': 'allow',
      'exec(rm*)': 'deny',
      'fs_write(secret.txt)': 'deny',
    }
    writeFileSync(join(project, '.hanzo', 'settings.json'), JSON.stringify({permissions}))
    expect(await runCli(['trust', '--yes'], {cwd: project, env: dirs.box.env})).toMatchObject({exitCode: 0})

    const asked = await run(ALLOWED_TOO_MUCH)
    const unanswered = await run([...HIDDEN_RM, ...HIDDEN_WRITES], '--permission-mode', 'allow-all')

    for (const [i, command] of ALLOWED_TOO_MUCH.entries()) {
      expect.soft(asked[i], command).toContain('Permission denied')
      expect.soft(existsSync(join(project, `M${i + 1}`)), command).toBe(false)
    }

    for (const [i, command] of HIDDEN_RM.entries()) {
      expect.soft(unanswered[i], command).toContain('Permission denied')
      expect.soft(existsSync(join(project, `x${i}`)), command).toBe(true)
    }

    for (const [i, command] of HIDDEN_WRITES.entries())
      expect.soft(unanswered[HIDDEN_RM.length + i], command).toContain('Permission denied')
    expect.soft(readFileSync(join(project, 'secret.txt'), 'utf8')).toBe('original\n')
  })
})

/**
 * Issue 36 item 2 ([security-3]): with the sandbox off and allow-all, the agent set git config
 * that names a program (a hooks directory it wrote, a config file it wrote that sets one), and
 * the user's next `hanzo-dev commit` ran the agent's hook. Each way of writing git config is
 * now a denied write of `.git/config`.
 */
const GIT_CONFIG_WRITES = [
  'git config core.hooksPath .githooks',
  'git config --file .git/config include.path ../inc.cfg',
  'git -c user.name=x config core.hooksPath .githooks',
  'git config set core.hooksPath .githooks',
  'cd src && git config core.hooksPath ../.githooks',
]

describe('hanzo-dev run: git config written by a command (issue 36)', () => {
  const dirs = useSandboxDirs('hanzo-git-config-', 'project')

  it('denies every git config write, and the next hanzo-dev commit runs no agent-written hook', async () => {
    const {project} = dirs
    const env = {
      ...dirs.box.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    }
    const git = (...args: string[]) => execFileSync('git', args, {cwd: project, encoding: 'utf8', env})
    git('init', '-q')
    mkdirSync(join(project, 'src'))
    writeFileSync(join(project, 'src', 'a.txt'), 'one\n')
    git('add', '.')
    git('commit', '-qm', 'first')
    const marker = join(dirs.box.home, 'HOOK-RAN')
    mkdirSync(join(project, '.githooks'))
    writeFileSync(join(project, '.githooks', 'pre-commit'), `#!/bin/sh\ntouch '${marker}'\n`)
    chmodSync(join(project, '.githooks', 'pre-commit'), 0o755)
    writeFileSync(join(dirs.box.home, 'inc.cfg'), '[core]\n\thooksPath = .githooks\n')
    mkdirSync(join(project, '.hanzo'))
    writeFileSync(
      join(project, '.hanzo', 'settings.json'),
      JSON.stringify({permissions: {exec: 'allow'}, sandbox: {mode: 'off'}}),
    )
    expect(await runCli(['trust', '--yes'], {cwd: project, env})).toMatchObject({exitCode: 0})

    const script: Script = {
      turns: [
        ...GIT_CONFIG_WRITES.map((command) => ({tool_calls: [{arguments: {command}, name: 'exec'}]})),
        {text: 'Done.'},
      ],
    }
    writeFileSync(join(dirs.box.home, 'script.json'), JSON.stringify(script))
    const result = await runCli(
      [
        'run',
        'set up hooks',
        '--fake-model',
        join(dirs.box.home, 'script.json'),
        '--output-format',
        'stream-json',
        '--permission-mode',
        'allow-all',
      ],
      {cwd: project, env},
    )
    expect(result.exitCode, result.stderr).toBe(0)
    const errors = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as {type: string; error?: string})
      .filter((event) => event.type === 'tool_result')
      .map((event) => event.error ?? 'no error: it ran')
    for (const [i, command] of GIT_CONFIG_WRITES.entries()) {
      expect.soft(errors[i], command).toMatch(/Permission denied.*\.git\/config.*protected/s)
    }

    expect(git('config', '--list')).not.toMatch(/hookspath|include\.path/i)
    writeFileSync(join(project, 'src', 'a.txt'), 'two\n')
    const commit = await runCli(['commit', '-m', 'second'], {cwd: project, env})
    expect(commit.exitCode, commit.stderr).toBe(0)
    expect(existsSync(marker)).toBe(false)
  })
})
