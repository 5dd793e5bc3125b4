import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {
  normalizeMcpServerName,
  normalizeMcpToolName,
  parseMcpToolName,
  ProtocolError,
} from '../../src/core/protocol/index.js'
import {REPO_ROOT} from '../helpers/cli.js'
import {thrownBy} from '../helpers/thrown.js'

interface Vector {
  name: string
  description: string
  server?: string
  tool?: string
  parse?: string
  expect: {name?: string; error?: string; server?: string; tool?: string; none?: true}
}

const {cases} = JSON.parse(readFileSync(join(REPO_ROOT, 'test-vectors', 'mcp-normalization.json'), 'utf8')) as {
  cases: Vector[]
}

describe('mcp-normalization vectors (HIP-301 §1)', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, vector) => {
    if (vector.parse !== undefined) {
      const parts = parseMcpToolName(vector.parse)
      expect(parts).toEqual(vector.expect.none ? undefined : {server: vector.expect.server, tool: vector.expect.tool})
      return
    }

    if (vector.expect.error) {
      const error = thrownBy(() => normalizeMcpToolName(vector.server!, vector.tool!))
      expect(error).toBeInstanceOf(ProtocolError)
      expect((error as ProtocolError).code).toBe(vector.expect.error)
      return
    }

    const name = normalizeMcpToolName(vector.server!, vector.tool!)
    expect(name).toBe(vector.expect.name)
    expect(name).toMatch(/^[\w-]{1,64}$/)
    // The inverse gives back the normalized server, and the tool part as it appears in the name.
    const parts = parseMcpToolName(name)
    expect(parts?.server).toBe(normalizeMcpServerName(vector.server!))
    expect(`mcp__${parts?.server}__${parts?.tool}`).toBe(name)
  })
})
