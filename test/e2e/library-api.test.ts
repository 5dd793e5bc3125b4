import {describe, expect, it} from 'vitest'

// The package's own entry, as `import ... from 'hanzo-dev'` resolves it (the built dist/).
const library = await import('hanzo-dev')

describe("the library entry ('hanzo-dev')", () => {
  it('exports the HIP-301 protocol pieces', () => {
    for (const name of ['SseFrameBuffer', 'Backoff', 'PkceChallenge', 'normalizeMcpToolName', 'parseMcpToolName', 'ProtocolError']) {
      expect(library, name).toHaveProperty(name)
    }

    const sse = new library.SseFrameBuffer()
    expect(sse.feed('data: [DONE]\n\n')).toEqual([{data: '[DONE]', event: null, id: null, retry: null}])
    expect(library.normalizeMcpToolName('github', 'create.issue')).toBe('mcp__github__create_issue')
  })

  it('exports the config loader', () => {
    expect(library).toHaveProperty('loadConfig')
  })
})
