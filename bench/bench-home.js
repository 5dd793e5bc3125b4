// A home of the benchmark's own: no real settings, plugins or credentials are read, and
// nothing is written outside a temp dir. It holds one user setting, so `config get model`
// has a value to print.
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

const INHERITED_NOT = /^(HANZO_|XDG_|OPENAI_|ANTHROPIC_|DEBUG$|NODE_OPTIONS$)/

export function makeBenchHome() {
  const home = mkdtempSync(join(tmpdir(), 'hanzo-bench-'))
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !INHERITED_NOT.test(k)))
  Object.assign(env, {
    HOME: home,
    NO_COLOR: '1',
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
  })
  mkdirSync(join(home, '.config', 'hanzo'), {recursive: true})
  writeFileSync(join(home, '.config', 'hanzo', 'settings.json'), '{"model": "bench-model"}\n')
  return {cleanup: () => rmSync(home, {force: true, recursive: true}), env, home}
}
