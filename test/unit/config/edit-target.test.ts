import {describe, expect, it} from 'vitest'

import {type EditTarget, setSetting, type SettingsWriteIO, unsetSetting} from '../../../src/core/config/index.js'
import {UserError} from '../../../src/core/errors.js'

/** An in-memory file system: path -> {text, mode}; `fail` makes one path's read or write throw an errno error. */
function memoryIO(files: Record<string, {text: string; mode: number}>, fail: {read?: string; write?: string} = {}) {
  const calls: Array<{dir?: string; path?: string; options?: unknown; mode?: number}> = []
  const errno = (code: string) => Object.assign(new Error(code), {code})
  const io: SettingsWriteIO = {
    async fileMode(path) {
      return files[path]?.mode
    },
    async mkdir(dir, mode) {
      calls.push({dir, mode})
    },
    async readText(path) {
      if (path === fail.read) throw errno('EISDIR')
      return files[path]?.text ?? null
    },
    async writeText(path, text, options) {
      if (path === fail.write) throw errno('EACCES')
      calls.push({options, path})
      files[path] = {mode: files[path]?.mode ?? 0o600, text}
    },
  }
  return {calls, io}
}

const target = (io: SettingsWriteIO, tier: 'user' | 'local' = 'user'): EditTarget => ({
  file: {path: tier === 'user' ? '/home/.config/hanzo/settings.json' : '/repo/.hanzo/settings.local.json', tier},
  io,
  projectRoot: '/repo',
  userFile: '/home/.config/hanzo/settings.json',
})

describe('config set / unset', () => {
  it('creates the user file 0600 in a 0700 directory', async () => {
    const {calls, io} = memoryIO({})
    await setSetting(target(io), 'api_key', 'sk-user-secret')
    expect(calls).toEqual([
      {dir: '/home/.config/hanzo', mode: 0o700},
      {options: {forceMode: false, mode: 0o600}, path: '/home/.config/hanzo/settings.json'},
    ])
  })

  it('repairs an open user file that holds a credential, with a warning that never quotes it', async () => {
    const {calls, io} = memoryIO({'/home/.config/hanzo/settings.json': {mode: 0o644, text: '{"model": "m"}'}})
    const result = await setSetting(target(io), 'api_key', 'sk-user-secret')
    expect(calls.at(-1)).toMatchObject({options: {forceMode: true, mode: 0o600}})
    expect(result.warnings).toEqual([expect.stringMatching(/settings\.json holds credentials .*mode 0644.* now 0600/)])
    expect(result.warnings.join('')).not.toContain('sk-user-secret')

    const plain = memoryIO({'/home/.config/hanzo/settings.json': {mode: 0o644, text: '{}'}})
    expect((await setSetting(target(plain.io), 'model', 'm')).warnings).toEqual([])
  })

  it('names the file when it cannot be read', async () => {
    const {io} = memoryIO({}, {read: '/home/.config/hanzo/settings.json'})
    const error = await unsetSetting(target(io), 'model').catch((error_: unknown) => error_)
    expect(error).toBeInstanceOf(UserError)
    expect((error as Error).message).toBe('Cannot read /home/.config/hanzo/settings.json (EISDIR); nothing was changed')
  })

  it('warns instead of failing when .gitignore cannot be updated after the write', async () => {
    const {io} = memoryIO({}, {write: '/repo/.gitignore'})
    const result = await setSetting(target(io, 'local'), 'input_mode', 'vim')
    expect(result.gitignore).toBeUndefined()
    expect(result.warnings).toEqual([
      expect.stringContaining('Could not add .hanzo/settings.local.json to /repo/.gitignore (EACCES)'),
    ])
  })

  it('suggests the setting a typo meant', async () => {
    const {io} = memoryIO({})
    await expect(setSetting(target(io), 'modle', 'x')).rejects.toThrow('Unknown setting "modle"; did you mean model?')
    await expect(setSetting(target(io), 'sandbox.mdoe', 'off')).rejects.toThrow('did you mean sandbox.mode?')
    await expect(setSetting(target(io), 'zzzzzz', 'x')).rejects.toThrow(/^Unknown setting "zzzzzz"$/)
  })

  it('refuses an MCP server with both command and url, and an unknown hook event', async () => {
    const {io} = memoryIO({})
    await expect(setSetting(target(io), 'mcp_servers.x', '{"command":"a","url":"http://h/mcp"}')).rejects.toThrow(
      'mcp_servers.x must be an object with "command" or "url", not both, found both',
    )
    await expect(setSetting(target(io), 'hooks', '[{"event":"before","command":"x"}]')).rejects.toThrow(
      /hooks\.0\.event must be one of "pre_tool_use"/,
    )
  })
})
