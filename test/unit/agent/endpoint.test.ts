import {describe, expect, it} from 'vitest'

import {configuredKey, resolveEndpoint, settingsModel} from '../../../src/core/agent/endpoint.js'
import {type SettingRank, TIER_RANK} from '../../../src/core/config/precedence.js'
import type {HanzoConfig} from '../../../src/core/config/types.js'
import {UserError} from '../../../src/core/errors.js'

const config = (settings: Partial<HanzoConfig> = {}): HanzoConfig => ({
  hooks: [],
  mcp_servers: {},
  model: 'm',
  permissions: {},
  ...settings,
})

describe('resolveEndpoint', () => {
  it('asks a provider with a default model of its own for it when nothing names one', () => {
    expect(resolveEndpoint(config({provider: 'openai'}), {OPENAI_API_KEY: 'sk-o'})).toMatchObject({
      model: 'gpt-5.5',
      provider: 'openai',
    })
    expect(resolveEndpoint(config({provider: 'openai'}), {OPENAI_API_KEY: 'sk-o'}, {model: 'gpt-5.4'}).model).toBe(
      'gpt-5.4',
    )
    expect(resolveEndpoint(config({api_key: 'sk-h'}), {}).model).toBe('m')
  })

  it("defaults to Hanzo's API with the configured key, over chat completions", () => {
    expect(resolveEndpoint(config({api_key: 'sk-secret'}), {})).toMatchObject({
      api: 'chat_completions',
      apiKey: 'sk-secret',
      baseURL: 'https://api.hanzo.ai/v1',
      maxRetries: 2,
      provider: 'hanzo',
    })
  })

  it('refuses to call a remote API without a key, naming what to do', () => {
    expect(() => resolveEndpoint(config(), {})).toThrow(UserError)
    expect(() => resolveEndpoint(config(), {})).toThrow(/No API key for https:\/\/api\.hanzo\.ai/)
  })

  it('needs no key for a local server, and never sends it the Hanzo key', () => {
    const local = resolveEndpoint(
      config({api_key: 'sk-secret'}),
      {},
      {baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b'},
    )
    expect(local).toMatchObject({apiKey: undefined, baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b'})
    expect(resolveEndpoint(config({provider: 'ollama'}), {})).toMatchObject({
      apiKey: undefined,
      baseURL: 'http://127.0.0.1:11434/v1',
    })
  })

  it('uses a custom provider with its own URL, key and API', () => {
    const settings = config({
      provider: 'corp',
      providers: {corp: {api: 'responses', api_key: 'tok-secret', base_url: 'https://llm.corp.example/v1'}},
    })
    expect(resolveEndpoint(settings, {})).toMatchObject({
      api: 'responses',
      apiKey: 'tok-secret',
      baseURL: 'https://llm.corp.example/v1',
      provider: 'corp',
    })
  })

  it("takes OpenAI's key from OPENAI_API_KEY and defaults api.openai.com to the Responses API", () => {
    expect(resolveEndpoint(config({provider: 'openai'}), {OPENAI_API_KEY: 'sk-openai-secret'})).toMatchObject({
      api: 'responses',
      apiKey: 'sk-openai-secret',
    })
  })

  it("takes Anthropic's key from ANTHROPIC_API_KEY and speaks the Messages API to api.anthropic.com", () => {
    expect(resolveEndpoint(config({provider: 'anthropic'}), {ANTHROPIC_API_KEY: 'sk-ant-secret'})).toMatchObject({
      api: 'anthropic_messages',
      apiKey: 'sk-ant-secret',
      baseURL: 'https://api.anthropic.com',
    })
    expect(resolveEndpoint(config({provider: 'anthropic'}), {}, {}, 'oauth-token')).toMatchObject({
      api: 'anthropic_messages',
      apiKey: 'oauth-token',
    })
    const proxy = config({
      provider: 'corp',
      providers: {corp: {api_key: 'k', base_url: 'https://api.anthropic.com/v1'}},
    })
    expect(resolveEndpoint(proxy, {})).toMatchObject({api: 'anthropic_messages'})
  })

  it('honours api and max_retries from the settings', () => {
    expect(resolveEndpoint(config({api: 'responses', api_key: 'k', max_retries: 0}), {})).toMatchObject({
      api: 'responses',
      maxRetries: 0,
    })
  })

  it('names an unknown provider and a base URL that is not a URL', () => {
    expect(() => resolveEndpoint(config({provider: 'nope'}), {})).toThrow(/Unknown provider "nope"/)
    expect(() => resolveEndpoint(config({api_key: 'k'}), {}, {baseURL: 'not a url'})).toThrow(/is not a URL/)
  })

  it('sends a stored login when no key is configured; a key from the settings or the environment wins', () => {
    expect(resolveEndpoint(config(), {}, {}, 'oauth-token')).toMatchObject({apiKey: 'oauth-token', provider: 'hanzo'})
    expect(resolveEndpoint(config({api_key: 'sk-user'}), {}, {}, 'oauth-token')).toMatchObject({apiKey: 'sk-user'})
    expect(resolveEndpoint(config({provider: 'openai'}), {OPENAI_API_KEY: 'sk-env'}, {}, 'oauth-token')).toMatchObject({
      apiKey: 'sk-env',
    })
  })

  it("sends a stored login to the provider's own local URL, never to a local server put in its place", () => {
    const corp = config({provider: 'corp', providers: {corp: {base_url: 'http://127.0.0.1:8080/v1'}}})
    expect(resolveEndpoint(corp, {}, {}, 'corp-token')).toMatchObject({apiKey: 'corp-token'})
    expect(resolveEndpoint(config(), {}, {baseURL: 'http://127.0.0.1:11434/v1'}, 'hanzo-token')).toMatchObject({
      apiKey: undefined,
    })
    expect(resolveEndpoint(config({base_url: 'http://127.0.0.1:11434/v1'}), {}, {}, 'hanzo-token')).toMatchObject({
      apiKey: undefined,
    })
  })

  it('names where a configured key comes from (never the key)', () => {
    expect(configuredKey(config({api_key: 'k'}), {}, 'hanzo')).toEqual({key: 'k', source: 'api_key'})
    expect(configuredKey(config({api_key: 'k'}), {}, 'openai')).toBeUndefined()
    expect(configuredKey(config(), {ANTHROPIC_API_KEY: 'a'}, 'anthropic')).toEqual({
      key: 'a',
      source: 'ANTHROPIC_API_KEY',
    })
    expect(configuredKey(config({providers: {corp: {api_key: 'c'}}}), {}, 'corp')).toEqual({
      key: 'c',
      source: 'providers.corp.api_key',
    })
  })

  describe('where two settings decide one thing, the higher tier wins (environment, local, project, user)', () => {
    const ranked =
      (tiers: Record<string, keyof typeof TIER_RANK>): SettingRank =>
      (key) =>
        tiers[key] ? TIER_RANK[tiers[key]] : 0
    const openai = config({base_url: 'http://127.0.0.1:9/v1', provider: 'openai'})

    it('HANZO_BASE_URL applies to any provider, over its own base_url from a file', () => {
      const env = {OPENAI_API_KEY: 'sk-o'}
      expect(resolveEndpoint(openai, env, {rank: ranked({base_url: 'env', provider: 'user'})}).baseURL).toBe(
        'http://127.0.0.1:9/v1',
      )
      expect(resolveEndpoint(openai, env, {rank: ranked({base_url: 'env', provider: 'env'})}).baseURL).toBe(
        'http://127.0.0.1:9/v1',
      )
      const own = config({
        base_url: 'http://127.0.0.1:9/v1',
        provider: 'openai',
        providers: {openai: {base_url: 'https://proxy.example/v1'}},
      })
      const rank = ranked({base_url: 'env', provider: 'project', 'providers.openai.base_url': 'project'})
      expect(resolveEndpoint(own, env, {rank}).baseURL).toBe('http://127.0.0.1:9/v1')
      // A provider's own URL wins over a top-level one from the same or a lower tier.
      expect(
        resolveEndpoint(own, env, {rank: ranked({base_url: 'user', 'providers.openai.base_url': 'user'})}).baseURL,
      ).toBe('https://proxy.example/v1')
    })

    it("leaves a file's base_url to the default provider when a higher or the same tier chose another", () => {
      const env = {OPENAI_API_KEY: 'sk-o'}
      for (const tiers of [
        {base_url: 'user', provider: 'project'},
        {base_url: 'user', provider: 'user'},
        {base_url: 'project', provider: 'env'},
      ] as const)
        expect(resolveEndpoint(openai, env, {rank: ranked(tiers)}).baseURL).toBe('https://api.openai.com/v1')
      expect(resolveEndpoint(openai, env, {rank: ranked({base_url: 'project', provider: 'user'})}).baseURL).toBe(
        'http://127.0.0.1:9/v1',
      )
    })

    it('never sends a stored login to a local server HANZO_BASE_URL put in place of the provider', () => {
      const rank = ranked({base_url: 'env', provider: 'user'})
      expect(resolveEndpoint(openai, {}, {rank}, 'openai-login')).toMatchObject({apiKey: undefined, local: true})
    })

    it('asks for the provider default when the model comes from a lower tier than the provider', () => {
      const settings = config({model: 'claude-sonnet-4', provider: 'openai'})
      expect(settingsModel(settings, ranked({model: 'user', provider: 'env'}))).toBeUndefined()
      expect(settingsModel(settings, ranked({model: 'project', provider: 'user'}))).toBe('claude-sonnet-4')
      expect(settingsModel(settings, ranked({model: 'user', provider: 'user'}))).toBe('claude-sonnet-4')
      expect(settingsModel(settings, ranked({model: 'env'}))).toBe('claude-sonnet-4')
      expect(settingsModel(settings, ranked({}))).toBeUndefined()
    })
  })
})
