import {execFileSync} from 'node:child_process'
import {cpSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync} from 'node:fs'
import {join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {runCli} from '../../../test/helpers/cli.js'

function works(args: string[]): boolean {
  try {
    execFileSync(args[0], args.slice(1), {stdio: 'ignore'})
    return true
  } catch {
    return false
  }
}

const bwrapWorks = works(['bwrap', '--ro-bind', '/', '/', 'true'])
const FIXTURE = fileURLToPath(new URL('fixtures/npm-project', import.meta.url))

/**
 * Issue 36 item 6: workspace mode (what `auto` picks wherever bubblewrap works) must let
 * ordinary development run: a real project's `npm ci && npm test`, from the npm registry, under
 * `sandbox exec` as the agent's exec runs it. npm's cache is writable, npx's packages and
 * everything else outside the workspace are not. The home directory is under /var/tmp: commands
 * get a private /tmp, which would hide a write to a home under /tmp by chance.
 */
describe.runIf(bwrapWorks)("a real project's npm ci && npm test under the sandbox's workspace mode", () => {
  let home: string
  let env: Record<string, string>
  let project: string
  beforeAll(() => {
    home = realpathSync(mkdtempSync('/var/tmp/hanzo-sandbox-npm-'))
    env = {
      HOME: home,
      NO_COLOR: '1',
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
    }
    project = join(home, 'project')
    cpSync(FIXTURE, project, {recursive: true})
    mkdirSync(join(project, '.git'))
  })
  afterAll(() => rmSync(home, {force: true, recursive: true}))

  it('installs from the registry into the workspace and npm’s cache, and the tests pass', async () => {
    const result = await runCli(['sandbox', 'exec', '--', 'npm ci --no-audit --no-fund && npm test'], {
      cwd: project,
      env,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stderr).toMatch(/commands run under bubblewrap: writable only .*\.npm/)
    expect(result.stdout).toContain('tests passed')
    expect(existsSync(join(project, 'node_modules', 'is-number', 'package.json'))).toBe(true)
    expect(existsSync(join(home, '.npm', '_cacache'))).toBe(true)
  })

  it('keeps the rest read-only: the home directory, and the npx packages that run later outside it', async () => {
    const result = await runCli(['sandbox', 'exec', '--', 'touch ~/planted; mkdir ~/.npm/_npx/planted; echo $?'], {
      cwd: project,
      env,
    })
    expect(result.stderr).toMatch(/touch: cannot touch '.*planted': Read-only file system/)
    expect(result.stderr).toMatch(/mkdir: cannot create directory .*_npx\/planted.: Read-only file system/)
    expect(result.stdout.trim()).not.toBe('0')
    expect(existsSync(join(home, 'planted'))).toBe(false)
    expect(existsSync(join(home, '.npm', '_npx', 'planted'))).toBe(false)
  })
})
