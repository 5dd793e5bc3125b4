import fc from 'fast-check'
import {describe, expect, it} from 'vitest'

import {
  normalizeMcpServerName,
  normalizeMcpToolName,
  parseMcpToolName,
  ProtocolError,
} from '../../../src/core/protocol/index.js'

const name = fc.string({maxLength: 40, minLength: 1, unit: 'binary'})

describe('normalizeMcpToolName', () => {
  it('gives a valid wire name that parses back to its server, or refuses the server clearly', () => {
    fc.assert(
      fc.property(name, name, (server, tool) => {
        let serverPart: string
        try {
          serverPart = normalizeMcpServerName(server)
        } catch (error) {
          expect(error).toBeInstanceOf(ProtocolError)
          expect(() => normalizeMcpToolName(server, tool)).toThrow(ProtocolError)
          return
        }

        const normalized = normalizeMcpToolName(server, tool)
        expect(normalized).toMatch(/^mcp__[\w-]+__[\w-]+$/)
        expect(normalized.length).toBeLessThanOrEqual(64)
        const parts = parseMcpToolName(normalized)
        expect(parts?.server).toBe(serverPart)
        expect(normalizeMcpToolName(server, tool)).toBe(normalized)
      }),
      {numRuns: 1000},
    )
  })

  it('keeps distinct long tools distinct when it cuts them', () => {
    const a = normalizeMcpToolName('srv', `${'x'.repeat(80)}a`)
    const b = normalizeMcpToolName('srv', `${'x'.repeat(80)}b`)
    expect(a).toHaveLength(64)
    expect(a).not.toBe(b)
  })
})
