import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {builtinTools} from '../../src/adapters/tools/index.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'

const BUILTINS = builtinTools().map((tool) => tool.name)
const FS_EXEC = BUILTINS.filter((name) => name.startsWith('fs_') || name === 'exec' || name.startsWith('exec_'))

interface Surface {
  tools: Array<{name: string; source: string; mutating: boolean; tokens: number}>
  systemPrompt: {tokens: number; sections: Array<{title: string; tokens: number}>}
  toolTokens: number
  totalTokens: number
}

type Offered = Array<{function: {name: string}}>

describe('the tool surface: its order, hanzo-dev tools, --tools and tools.enabled', () => {
  const dirs = useSandboxDirs('hanzo-surface-', 'project')
  let model: FakeModel | undefined
  beforeEach(async () => {
    // A repository, so the git plugin's tools are offered too.
    await execa('git', ['init', '-q'], {cwd: dirs.project})
  })
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const cli = (args: string[]) => runCli(args, {cwd: dirs.project, env: dirs.box.env})
  const userSettings = (settings: unknown) => {
    const dir = join(dirs.box.home, '.config', 'hanzo')
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings))
    return join(dir, 'settings.json')
  }

  it('tools --json lists the built-ins in order, then the plugins tools, each with its source and tokens, without a credential', async () => {
    const result = await cli(['tools', '--json'])
    expect(result.exitCode, result.stderr).toBe(0)
    const surface = JSON.parse(result.stdout) as Surface
    const names = surface.tools.map((tool) => tool.name)
    expect(names.slice(0, BUILTINS.length)).toEqual(BUILTINS)
    // A session with a model offers task too, though this one lists its tools without a model.
    expect(names[BUILTINS.length]).toBe('task')
    expect(names.slice(BUILTINS.length).filter((name) => name.startsWith('git_'))).toEqual([
      'git_diff',
      'git_log',
      'git_status',
    ])
    expect(surface.tools.find((tool) => tool.name === 'fs_write')).toMatchObject({mutating: true, source: 'builtin'})
    expect(surface.tools.find((tool) => tool.name === 'git_log')).toMatchObject({source: '@hanzo-dev/plugin-git'})
    expect(surface.tools.every((tool) => tool.tokens > 0)).toBe(true)
    expect(surface.toolTokens).toBe(surface.tools.reduce((sum, tool) => sum + tool.tokens, 0))
    expect(surface.totalTokens).toBe(surface.toolTokens + surface.systemPrompt.tokens)
    expect(surface.systemPrompt.sections.length).toBeGreaterThan(1)

    const text = await cli(['tools', '--tools', 'fs,exec'])
    expect(text.exitCode, text.stderr).toBe(0)
    expect(text.stdout).toMatch(/^ +\d+ {2}fs_read +reads +builtin$/m)
    expect(text.stdout).toContain('tool schemas (10 tools)')
    expect(text.stdout).toMatch(/ sent with every request, before the conversation$/)
  })

  it('offers the same tools, byte for byte and in the same order, to the model from two processes', async () => {
    model = await startFakeModel({turns: [{text: 'one'}, {text: 'two'}]})
    for (const answer of ['one', 'two']) {
      const result = await cli(['run', 'hi', '--base-url', model.url])
      expect(result.exitCode, result.stderr).toBe(0)
      expect(result.stdout).toBe(answer)
    }

    const [first, second] = model.requests.map((request) => JSON.stringify((request.body as {tools: Offered}).tools))
    expect(second).toBe(first)
    const offered = (model.requests[0].body as {tools: Offered}).tools.map((tool) => tool.function.name)
    expect(offered.slice(0, BUILTINS.length)).toEqual(BUILTINS)
    expect(offered).toContain('git_status')
  })

  it('run --tools fs,exec offers the model the fs tools and exec with its background tools, nothing else', async () => {
    model = await startFakeModel({turns: [{text: 'done'}]})
    const result = await cli(['run', 'hi', '--base-url', model.url, '--tools', 'fs,exec'])
    expect(result.exitCode, result.stderr).toBe(0)
    const offered = (model.requests[0].body as {tools: Offered}).tools.map((tool) => tool.function.name)
    expect(offered).toEqual(FS_EXEC)
  })

  it('tools.enabled offers a subset, --tools beats it, and an entry that matches nothing is a warning listing the tools', async () => {
    userSettings({tools: {enabled: ['git', 'todo_write', 'mcp__github__*', 'nope_*']}})
    const fromSetting = await cli(['tools', '--json'])
    expect(fromSetting.exitCode, fromSetting.stderr).toBe(0)
    expect((JSON.parse(fromSetting.stdout) as Surface).tools.map((tool) => tool.name)).toEqual([
      'todo_write',
      'git_diff',
      'git_log',
      'git_status',
    ])
    expect(unwrapped(fromSetting.stderr)).toMatch(
      /Warning: tools "nope_\*" offer nothing: no tool matches it \(the tools are: fs_read, fs_write, .*git_status/,
    )
    // MCP servers' tools come once the servers are up: not a name no tool has.
    expect(fromSetting.stderr).not.toContain('mcp__github__')

    model = await startFakeModel({turns: [{text: 'done'}]})
    const flag = await cli(['run', 'hi', '--base-url', model.url, '--tools', 'web_fetch'])
    expect(flag.exitCode, flag.stderr).toBe(0)
    expect((model.requests[0].body as {tools: Offered}).tools.map((tool) => tool.function.name)).toEqual(['web_fetch'])
  })

  it('a tools.enabled that is not a list is a clear error naming the file and the key', async () => {
    const file = userSettings({tools: {enabled: 'fs,exec'}})
    const result = await cli(['tools'])
    expect(result.exitCode).toBe(1)
    const stderr = unwrapped(result.stderr)
    expect(stderr).toContain(`Invalid setting in ${file}: tools.enabled must be a list of strings, found a string`)
    expect(stderr).not.toMatch(/\n\s+at /)

    userSettings({tools: {enabled: ['fs exec']}})
    const spaced = unwrapped((await cli(['tools'])).stderr)
    expect(spaced).toContain('tools.enabled.0 must be a string matching')
  })
})
