import {describe, expect, it} from 'vitest'

import {formatLike, parseCliValue, resolveKey, withGitignoreEntry} from '../../../src/core/config/index.js'

describe('config set helpers', () => {
  it('reads VALUE as JSON when it parses, else as text; text-only settings keep it as typed', () => {
    const schema = (key: string) => resolveKey(key).schema
    expect(parseCliValue('8000', schema('max_tokens'))).toBe(8000)
    expect(parseCliValue('true', schema('mcp_servers.fs.disabled'))).toBe(true)
    expect(parseCliValue('["npx","x"]', schema('mcp_servers.fs.command'))).toEqual(['npx', 'x'])
    expect(parseCliValue('npx', schema('mcp_servers.fs.command'))).toBe('npx')
    expect(parseCliValue('123', schema('model'))).toBe('123')
    expect(parseCliValue('null', schema('custom_instructions'))).toBe('null')
    expect(parseCliValue('"quoted"', schema('model'))).toBe('quoted')
    expect(parseCliValue('deny', schema('permissions.exec(git push*)'))).toBe('deny')
  })

  it('refuses JSON nested past the settings bound instead of overflowing the stack; a text setting keeps it as text', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
    expect(() => parseCliValue(deep, resolveKey('mcp_servers.fs.command').schema)).toThrow(
      'The value has objects and lists nested more than 64 levels deep; no setting takes that, so nothing was changed',
    )
    expect(parseCliValue(deep, resolveKey('custom_instructions').schema)).toBe(deep)
  })

  it('splits dotted keys with the schema: plain-value maps keep dots in their names', () => {
    expect(resolveKey('permissions.fs_write(.env)').segments).toEqual(['permissions', 'fs_write(.env)'])
    expect(resolveKey('mcp_servers.fs.env.A.B').segments).toEqual(['mcp_servers', 'fs', 'env', 'A.B'])
    expect(resolveKey('sandbox.mode').schema).toMatchObject({enum: ['auto', 'off', 'workspace', 'allowlist']})
    expect(resolveKey('modle').schema).toBeUndefined()
  })

  it('formats like the original: indentation, line endings, final newline', () => {
    expect(formatLike({a: {b: 1}}, null)).toBe('{\n  "a": {\n    "b": 1\n  }\n}\n')
    expect(formatLike({a: 1}, '{\n\t"a": 0\n}')).toBe('{\n\t"a": 1\n}\n')
    expect(formatLike({a: 1}, '{\r\n    "a": 0\r\n}\r\n')).toBe('{\r\n    "a": 1\r\n}\r\n')
  })

  it('adds the local settings file to .gitignore unless something there already ignores it', () => {
    expect(withGitignoreEntry(null)).toBe('.hanzo/settings.local.json\n')
    expect(withGitignoreEntry('dist')).toBe('dist\n.hanzo/settings.local.json\n')
    expect(withGitignoreEntry('dist\n')).toBe('dist\n.hanzo/settings.local.json\n')
    for (const present of ['.hanzo/settings.local.json', '/.hanzo/', 'settings.local.json', '.hanzo']) {
      expect(withGitignoreEntry(`node_modules\n${present}\n`)).toBeUndefined()
    }
  })
})
