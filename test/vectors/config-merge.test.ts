import {mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join, resolve} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {nodeConfigIO} from '../../src/adapters/config-io.js'
import {ConfigError, loadConfig} from '../../src/core/config/index.js'
import {REPO_ROOT} from '../helpers/cli.js'

type Tier = 'user' | 'project' | 'local'

interface Vector {
  name: string
  description: string
  files?: Partial<Record<Tier, unknown>>
  env?: Record<string, string>
  cwd?: string
  git?: boolean
  expect: {
    config?: Record<string, unknown>
    origins?: Record<string, string>
    permissions_order?: string[]
    warnings?: Array<{tier: Tier; key: string}>
    error?: {tier?: Tier; env?: string; key?: string; line?: number; column?: number}
  }
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'config-merge.json'), 'utf8')) as {
  cases: Vector[]
}
const root = realpathSync(mkdtempSync(join(tmpdir(), 'hanzo-vectors-')))
afterAll(() => rmSync(root, {force: true, recursive: true}))

/** The fake secrets of a case: none may appear in a message. */
function secretsOf(vector: Vector): string[] {
  return [...JSON.stringify(vector.files ?? {}).matchAll(/(?:sk|ghp|tok|cs)-[\w-]*secret[\w-]*|Bearer [\w-]+/g)].map(
    (m) => m[0],
  )
}

function layOut(vector: Vector, index: number) {
  const dir = join(root, String(index))
  const home = join(dir, 'home')
  const repo = join(dir, 'repo')
  const paths: Record<Tier, string> = {
    local: join(repo, '.hanzo', 'settings.local.json'),
    project: join(repo, '.hanzo', 'settings.json'),
    user: join(home, '.config', 'hanzo', 'settings.json'),
  }
  mkdirSync(home, {recursive: true})
  mkdirSync(repo, {recursive: true})
  if (vector.git !== false) mkdirSync(join(repo, '.git'))
  for (const [tier, content] of Object.entries(vector.files ?? {}) as Array<[Tier, unknown]>) {
    mkdirSync(resolve(paths[tier], '..'), {recursive: true})
    writeFileSync(paths[tier], typeof content === 'string' ? content : JSON.stringify(content, null, 2))
  }

  const cwd = join(repo, vector.cwd ?? '')
  mkdirSync(cwd, {recursive: true})
  const env = {HOME: home, XDG_CONFIG_HOME: join(home, '.config'), ...vector.env}
  return {cwd, env, home, paths}
}

describe('config-merge vectors', () => {
  it('has at least 20 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(20)
  })

  it.each(cases.map((c, i) => [c.name, c, i] as const))('%s', async (_name, vector, index) => {
    const {cwd, env, home, paths} = layOut(vector, index)
    const tierOf = (file: string) => (Object.entries(paths).find(([, path]) => path === file)?.[0] ?? file) as Tier
    const origin = (value: string) =>
      value === 'default' ? value : /^[A-Z][A-Z\d_]*$/.test(value) ? `env:${value}` : tierOf(value)
    const secrets = secretsOf(vector)
    const {expect: want} = vector

    if (want.error) {
      const error = await loadConfig({cwd, env, homedir: home, io: nodeConfigIO}).then(
        () => undefined,
        (error_: unknown) => error_,
      )
      expect(error).toBeInstanceOf(ConfigError)
      const configError = error as ConfigError
      if (want.error.env) {
        expect(configError.file).toBe(want.error.env)
        expect(configError.message).toContain(want.error.env)
      } else {
        expect(configError.file).toBe(paths[want.error.tier as Tier])
        expect(configError.message).toContain(paths[want.error.tier as Tier])
      }

      if (want.error.key) {
        expect(configError.keyPath).toBe(want.error.key)
        expect(configError.message).toContain(want.error.key)
      }

      if (want.error.line) {
        expect({column: configError.column, line: configError.line}).toEqual({
          column: want.error.column,
          line: want.error.line,
        })
        expect(configError.message).toContain(`line ${want.error.line}, column ${want.error.column}`)
      }

      for (const secret of secrets) expect(configError.message).not.toContain(secret)
      return
    }

    const loaded = await loadConfig({cwd, env, homedir: home, io: nodeConfigIO})
    if (want.config) expect(loaded.config).toEqual(want.config)
    if (want.permissions_order) expect(Object.keys(loaded.config.permissions)).toEqual(want.permissions_order)
    for (const [key, where] of Object.entries(want.origins ?? {}))
      expect(origin(loaded.origins[key]), `origin of ${key}`).toBe(where)
    if (want.warnings) {
      const got = loaded.warnings.map((w) => `${tierOf(w.file)} ${w.keyPath}`).sort()
      expect(got).toEqual(want.warnings.map((w) => `${w.tier} ${w.key}`).sort())
    }

    const messages = JSON.stringify(loaded.warnings)
    for (const secret of secrets) expect(messages).not.toContain(secret)
  })
})
