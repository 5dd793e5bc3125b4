import {describe, expect, it} from 'vitest'

import validate from '../../../src/core/config/settings-validator.js'

// `web_search` in a settings file: a provider it knows, SearXNG with its url, a key by variable name only.

describe('web_search settings', () => {
  const errors = (web_search: unknown) => (
    validate({web_search}),
    (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`)
  )

  it('accepts each provider with what it needs', () => {
    expect(errors({provider: 'searxng', url: 'http://127.0.0.1:8888'})).toEqual([])
    expect(errors({api_key_env: 'MY_BRAVE_KEY', provider: 'brave'})).toEqual([])
    expect(errors({provider: 'hanzo'})).toEqual([])
  })

  it('refuses an unknown provider, SearXNG without a url, a key where a variable name goes', () => {
    expect(errors({provider: 'bing'})).toContain('/web_search/provider enum')
    expect(errors({provider: 'searxng'})).toContain('/web_search required')
    expect(errors({api_key_env: 'BSA-abc def', provider: 'brave'})).toContain('/web_search/api_key_env pattern')
    expect(errors({url: 'https://api.search.brave.com'})).toContain('/web_search required')
    expect(errors({api_key: 'k', provider: 'brave'})).toContain('/web_search additionalProperties')
  })
})
