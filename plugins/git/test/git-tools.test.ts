import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {ToolDefinition} from '@hanzo-dev/sdk'
import {type FakeModel, startFakeModel} from '../../../src/testing/fake-model/server.js'
import {runCli, useSandboxDirs} from '../../../test/helpers/cli.js'
import {gitTools} from '../src/git-tools.js'
import {MAX_TOOL_OUTPUT} from '../src/git-tool-runner.js'
import {makeRepo} from './git-fixture.js'

const dirs = useSandboxDirs('hanzo-git-tools-')
const tool = (name: string) => gitTools().find((t) => t.name === name) as ToolDefinition
const call = (name: string, input: Record<string, unknown>, cwd: string) =>
  tool(name).execute(input, {cwd, sessionId: 's', signal: new AbortController().signal})

describe('git_status, git_diff, git_log', () => {
  it('are read-only and report the workspace', async () => {
    const repo = makeRepo(dirs.box)
    expect(gitTools().map((t) => [t.name, t.mutating])).toEqual([
      ['git_status', false],
      ['git_diff', false],
      ['git_log', false],
    ])
    repo.write('README.md', 'hello\nagain\n')
    repo.write('src/new file.txt', 'new\n')
    expect((await call('git_status', {}, repo.dir)).output).toBe('## main\n M README.md\n?? "src/new file.txt"')
    const diff = await call('git_diff', {}, repo.dir)
    expect(diff.output).toContain('M README.md (+1 -0)')
    expect(diff.output).toContain('+again')
    expect((await call('git_diff', {staged: true}, repo.dir)).output).toBe('No changes.')
    expect((await call('git_log', {}, repo.dir)).output).toMatch(/^[0-9a-f]{7,} \d{4}-\d\d-\d\d Test: first$/)
  })

  it('take paths relative to a subdirectory, refuse an option as a revision, and cap what they return', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('src/a.txt', 'a\n')
    repo.write('b.txt', 'b\n')
    repo.git('add', '.')
    repo.git('commit', '--quiet', '-m', 'second')
    repo.write('src/a.txt', `${'x'.repeat(199)}\n`.repeat(2000))
    repo.write('b.txt', 'b\nb\n')
    const sub = join(repo.dir, 'src')
    const only = await call('git_diff', {path: 'a.txt'}, sub)
    expect(only.output).toContain('M src/a.txt (+2000 -1)')
    expect(only.output).not.toContain('b.txt')
    expect(only.output.length).toBeLessThanOrEqual(MAX_TOOL_OUTPUT + 100)
    expect((await call('git_log', {path: 'a.txt'}, sub)).output).toMatch(/Test: second$/)
    const injected = await call('git_log', {ref: '--output=/tmp/x'}, repo.dir)
    expect(injected).toMatchObject({
      error: 'ref must name a commit, branch or tag (it may not start with -)',
      is_error: true,
    })
  })

  it('never start the program a repository names as core.fsmonitor', async () => {
    const repo = makeRepo(dirs.box)
    const marker = join(dirs.box.home, 'ran')
    writeFileSync(join(dirs.box.home, 'monitor.sh'), `#!/bin/sh\ntouch ${marker}\n`, {mode: 0o755})
    repo.git('config', 'core.fsmonitor', join(dirs.box.home, 'monitor.sh'))
    repo.write('README.md', 'changed\n')
    await call('git_status', {}, repo.dir)
    await call('git_diff', {}, repo.dir)
    const {existsSync} = await import('node:fs')
    expect(existsSync(marker)).toBe(false)
  })

  it('outside a repository: an error result for the model', async () => {
    expect(await call('git_status', {}, dirs.box.home)).toMatchObject({is_error: true})
  })
})

describe('the tools in an agent session', () => {
  let model: FakeModel | undefined
  afterEach(async () => model?.close())

  it('are offered in a repository and run without asking, as the read-only built-ins do', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('README.md', 'changed\n')
    model = await startFakeModel({
      turns: [
        {expect: {tools_include: ['git_status', 'git_diff', 'git_log']}, tool_calls: [{name: 'git_status'}]},
        {expect: {tool_result_contains: ' M README.md'}, text: 'README.md is modified.'},
      ],
    })
    const result = await runCli(['run', 'what changed?', '--base-url', model.url], {cwd: repo.dir, env: repo.env})
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain('README.md is modified.')
  })
})
