import {DEFAULT_HOOK_TIMEOUT_MS} from '@hanzo-dev/sdk/settings'
import {Chalk} from 'chalk'
import {describe, expect, it} from 'vitest'

import {readSandboxConfig} from '../../../plugins/sandbox/src/isolation.js'
import {renderSettingKeys} from '../../../src/cli/render-setting-keys.js'
import {DEFAULT_RUN_MAX_TURNS} from '../../../src/cli/run-session.js'
import {DEFAULT_RESERVE_RECENT} from '../../../src/core/agent/compaction.js'
import {DEFAULT_MAX_RETRIES} from '../../../src/core/agent/endpoint.js'
import {ENV_BINDINGS} from '../../../src/core/config/env.js'
import {resolveKey} from '../../../src/core/config/key-path.js'
import {DEFAULT_MODEL} from '../../../src/core/config/schema.js'
import {settingKeys, settingKeysUnder} from '../../../src/core/config/setting-keys.js'

const ALL_TIERS = ['user', 'project', 'local']
const byKey = () => new Map(settingKeys().map((k) => [k.key, k]))

describe('settingKeys', () => {
  it('lists every setting with a description, and every key resolves as config set reads it', () => {
    const keys = settingKeys()
    expect(keys.filter((k) => !k.description).map((k) => k.key)).toEqual([])
    for (const k of keys) expect(resolveKey(k.key.replaceAll(/<n>/g, '0')).schema, k.key).toBeDefined()
    expect(keys.map((k) => k.key)).toEqual(
      expect.arrayContaining([
        'model',
        'sandbox.mode',
        'mcp_servers.<name>.command',
        'hooks.<n>.event',
        'permissions.<pattern>',
      ]),
    )
    for (const {key, variable} of ENV_BINDINGS) expect(keys.find((k) => k.key === key.join('.'))?.env).toBe(variable)
  })

  it('gives the type, default and variable from the schema', () => {
    const keys = byKey()
    expect(keys.get('model')).toEqual({
      default: DEFAULT_MODEL,
      description: expect.any(String),
      env: 'HANZO_MODEL',
      key: 'model',
      rules: [],
      tiers: ALL_TIERS,
      type: 'string',
    })
    expect(keys.get('max_retries')).toMatchObject({default: 2, type: 'integer, 0 to 10'})
    expect(keys.get('sandbox.mode')).toMatchObject({
      type: 'auto | off | workspace | allowlist',
      values: ['auto', 'off', 'workspace', 'allowlist'],
    })
    expect(keys.get('mcp_servers.<name>.command')?.type).toBe('string or list of strings')
    expect(keys.get('base_url')?.type).toBe('URL')
  })

  it('keeps the defaults the code applies', () => {
    const keys = byKey()
    expect(keys.get('max_retries')?.default).toBe(DEFAULT_MAX_RETRIES)
    expect(keys.get('max_turns')?.default).toBe(DEFAULT_RUN_MAX_TURNS)
    expect(keys.get('reserve_recent')?.default).toBe(DEFAULT_RESERVE_RECENT)
    expect(keys.get('hooks.<n>.timeout_ms')?.default).toBe(DEFAULT_HOOK_TIMEOUT_MS)
    const sandbox = readSandboxConfig({})
    expect('settings' in sandbox && sandbox.settings.network).toBe(keys.get('sandbox.network')?.default)
    expect('settings' in sandbox && sandbox.settings.mode).toBe(keys.get('sandbox.mode')?.default)
  })

  it('says what project and local files may not do, as the loader enforces it', () => {
    const keys = byKey()
    expect(keys.get('api_key')).toMatchObject({rules: ['user tier only: a credential'], tiers: ['user']})
    expect(keys.get('providers.<name>.api_key')).toMatchObject({tiers: ['user']})
    expect(keys.get('tracing.endpoint')).toMatchObject({rules: ['user tier only'], tiers: ['user']})
    expect(keys.get('sandbox.mode')).toMatchObject({
      rules: ['project and local files may not set "off"'],
      tiers: ALL_TIERS,
    })
    expect(keys.get('sandbox.network')?.rules).toEqual(['project and local files may not set true'])
    expect(keys.get('permissions.<pattern>')?.rules).toEqual([
      'in project and local files, "allow" takes effect only once the project is trusted (hanzo-dev trust)',
    ])
    expect(keys.get('hooks.<n>.command')?.rules).toEqual([
      'in project and local files, it takes effect only once the project is trusted (hanzo-dev trust)',
    ])
    expect(keys.get('mcp_servers.<name>.env.<NAME>')?.rules).toContain(
      'user tier only when the name looks secret (like API_KEY): a credential',
    )
    expect(keys.get('base_url')?.rules).toEqual([
      'in project and local files, it is ignored when it would send your credentials elsewhere',
    ])
    expect(keys.get('providers.<name>.api')?.rules).toEqual([])
  })

  it('narrows to a section or a named entry, and names the setting meant for a typo', () => {
    expect(settingKeysUnder('sandbox').map((k) => k.key)).toEqual([
      'sandbox',
      'sandbox.mode',
      'sandbox.allowed_paths',
      'sandbox.network',
    ])
    expect(settingKeysUnder('mcp_servers.fs').map((k) => k.key)).toContain('mcp_servers.<name>.url')
    expect(settingKeysUnder('permissions.exec(git push*)').map((k) => k.key)).toEqual(['permissions.<pattern>'])
    expect(() => settingKeysUnder('sandbox.mod')).toThrow('Unknown setting "sandbox.mod"; did you mean sandbox.mode?')
  })
})

describe('renderSettingKeys', () => {
  const plain = new Chalk({level: 0})

  it('wraps at words within the width on a terminal, and keeps each part on one line when piped', () => {
    const keys = settingKeysUnder('sandbox')
    const wrapped = renderSettingKeys(keys, plain, 40).split('\n')
    expect(wrapped.filter((l) => l.length > 40)).toEqual([])
    expect(wrapped).toContain('sandbox.mode  auto | off | workspace |')
    const piped = renderSettingKeys(keys, plain)
    expect(piped).toContain(
      `sandbox.mode  auto | off | workspace | allowlist, default auto, env HANZO_SANDBOX_MODE\n    ${keys[1].description}\n    → project and local files may not set "off"`,
    )
    expect(piped.replaceAll(/\s+/g, ' ')).toBe(renderSettingKeys(keys, plain, 40).replaceAll(/\s+/g, ' '))
  })
})
