import {existsSync, readdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {REPO_ROOT} from '../helpers/cli.js'

const vectorsDir = join(REPO_ROOT, 'test-vectors')
const files = readdirSync(vectorsDir).filter((f) => f.endsWith('.json'))

describe('test-vectors', () => {
  it.each(files)('%s has a runner in test/vectors and the common format', (file) => {
    const domain = file.replace(/\.json$/, '')
    expect(existsSync(join(REPO_ROOT, 'test', 'vectors', `${domain}.test.ts`)), `test/vectors/${domain}.test.ts`).toBe(
      true,
    )
    const doc = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8'))
    expect(doc.domain).toBe(domain)
    expect(Array.isArray(doc.cases) && doc.cases.length > 0).toBe(true)
    const names = doc.cases.map((c: {name: string}) => c.name)
    expect(new Set(names).size).toBe(names.length)
  })

  it('finds the vector files', () => {
    expect(files).toContain('config-merge.json')
  })
})
