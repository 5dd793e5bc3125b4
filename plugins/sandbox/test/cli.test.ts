import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox} from '../../../test/helpers/cli.js'

// sandbox status, check and exec through the built CLI (bin/run.js), with real bubblewrap and
// unshare. The mode is set explicitly: its default, auto, depends on the machine.

function works(args: string[]): boolean {
  try {
    execFileSync(args[0], args.slice(1), {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
}

const bwrapWorks = works(['bwrap', '--ro-bind', '/', '/', 'true'])
const unshareWorks = works([
  'unshare',
  ...(process.getuid?.() === 0 ? [] : ['--user', '--map-root-user']),
  '--mount',
  'true',
])

let box: Sandbox
let project: string
let outside: string
beforeEach(() => {
  box = makeSandbox('hanzo-sandbox-cli-')
  project = join(box.home, 'project')
  mkdirSync(join(project, '.git', 'hooks'), {recursive: true})
  mkdirSync(join(project, '.hanzo'))
  writeFileSync(join(project, '.hanzo', 'settings.json'), JSON.stringify({sandbox: {mode: 'workspace'}}))
  outside = mkdtempSync('/var/tmp/hanzo-sandbox-cli-outside-')
})
afterEach(() => {
  box.cleanup()
  rmSync(outside, {force: true, recursive: true})
})

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, {cwd: project, env: {...box.env, ...env}})

describe('hanzo-dev sandbox status', () => {
  it.runIf(bwrapWorks)(
    'reports bubblewrap in force after its trial run, with the mode, workspace, network and container',
    async () => {
      const {exitCode, stdout} = await run(['sandbox', 'status', '--json'])
      expect(exitCode).toBe(0)
      const status = JSON.parse(stdout)
      expect(status).toMatchObject({
        bubblewrap: {probed: true, works: true},
        defaulted: false,
        enforcement: 'bwrap',
        mode: 'workspace',
        network: true,
        workspace: project,
      })
      expect(status).toHaveProperty('container')

      const text = await run(['sandbox', 'status'])
      expect(text.stdout).toMatch(/^isolation +bubblewrap: /m)
      expect(text.stdout).toMatch(/^network +on$/m)
      expect(text.stdout).toMatch(new RegExp(`^workspace +${project}$`, 'm'))
    },
  )

  it('reports the mechanism HANZO_SANDBOX_MECHANISM forces', async () => {
    const {stdout} = await run(['sandbox', 'status', '--json'], {HANZO_SANDBOX_MECHANISM: 'path-checks'})
    expect(JSON.parse(stdout)).toMatchObject({
      bubblewrap: {probed: false},
      enforcement: 'path-checks',
      unshare: {probed: false},
    })
  })
})

describe('hanzo-dev sandbox check', () => {
  it('says allowed or refused with the reason per path, and exits 1 when any is refused', async () => {
    symlinkSync(outside, join(project, 'out'))
    const {exitCode, stdout} = await run(['sandbox', 'check', 'src/a.ts', 'out/x', '../project_evil'])
    expect(exitCode).toBe(1)
    expect(stdout.split('\n')).toEqual([
      `allowed  ${join(project, 'src', 'a.ts')}`,
      `refused  out/x (${join(outside, 'x')}) is outside the workspace ${project}`,
      `refused  ../project_evil (${join(box.home, 'project_evil')}) is outside the workspace ${project}`,
    ])
  })

  it('checks for writing with --write, and answers in JSON', async () => {
    const {exitCode, stdout} = await run([
      'sandbox',
      'check',
      '--write',
      '--json',
      '.git/hooks/pre-commit',
      'README.md',
    ])
    expect(exitCode).toBe(1)
    expect(JSON.parse(stdout)).toEqual({
      mode: 'workspace',
      results: [
        {
          allowed: false,
          path: '.git/hooks/pre-commit',
          reason: `.git/hooks/pre-commit (${join(project, '.git', 'hooks', 'pre-commit')}) is read-only in the sandbox: git runs what is there`,
          resolved: join(project, '.git', 'hooks', 'pre-commit'),
        },
        {allowed: true, path: 'README.md', resolved: join(project, 'README.md')},
      ],
      workspace: project,
      write: true,
    })
    expect((await run(['sandbox', 'check', 'README.md'])).exitCode).toBe(0)
  })
})

describe('hanzo-dev sandbox exec', () => {
  it.runIf(bwrapWorks)('runs the command under bubblewrap, streams its output and exits with its code', async () => {
    const script = `echo in > in.txt && echo inside-ok; echo x > ${outside}/escaped || echo outside-refused; echo oops >&2; exit 3`
    const {exitCode, stderr, stdout} = await run(['sandbox', 'exec', '--', script])
    expect(exitCode).toBe(3)
    expect(stdout).toBe('inside-ok\noutside-refused')
    expect(stderr).toContain(
      `[sandbox: commands run under bubblewrap: writable only ${join(box.home, '.npm')}, ${join(box.home, '.cache')}, ${project} (and a private /tmp)]`,
    )
    expect(stderr).toMatch(/Read-only file system\noops$/)
    expect(existsSync(join(project, 'in.txt'))).toBe(true)
    expect(existsSync(join(outside, 'escaped'))).toBe(false)
  })

  it.runIf(unshareWorks)(
    'quotes several words into one command line, and answers in JSON under the unshare fallback',
    async () => {
      const {exitCode, stdout} = await run(
        [
          'sandbox',
          'exec',
          '--json',
          '--',
          'sh',
          '-c',
          'touch "$1/x" 2>/dev/null || echo refused; exit 5',
          'sh',
          outside,
        ],
        {
          HANZO_SANDBOX_MECHANISM: 'unshare',
        },
      )
      expect(exitCode).toBe(5)
      const result = JSON.parse(stdout)
      expect(result.command).toBe(`sh -c 'touch "$1/x" 2>/dev/null || echo refused; exit 5' sh ${outside}`)
      expect(result).toMatchObject({enforcement: 'unshare', exitCode: 5, signal: null, stderr: '', stdout: 'refused\n'})
      expect(existsSync(join(outside, 'x'))).toBe(false)
    },
  )
})

describe('--help', () => {
  it.each([['status'], ['check'], ['exec']])('sandbox %s shows its examples', async (command) => {
    const {exitCode, stdout} = await run(['sandbox', command, '--help'])
    expect(exitCode).toBe(0)
    expect(stdout).toContain(`$ hanzo-dev sandbox ${command}`)
    expect(stdout).toContain('--json')
  })
})
