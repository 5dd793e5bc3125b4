import {execFileSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'

/** What the model got as its system prompt in a run of the built CLI in a project with `files`. */
describe('project instructions', () => {
  const dirs = useSandboxDirs('hanzo-instructions-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  async function systemPrompt(files: Record<string, string>): Promise<string> {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dirs.project, name), text)
    model = await startFakeModel({turns: [{text: 'Done.'}]})
    const result = await runCli(['run', 'hello', '--base-url', model.url, '--permission-mode', 'deny'], {
      cwd: dirs.project,
      env: dirs.box.env,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    return (model.requests[0].body as {messages: Array<{content: string}>}).messages[0].content
  }

  it('reads CLAUDE.md when there is no AGENTS.md or HANZO.md, and only it of the other agents’ files', async () => {
    const system = await systemPrompt({
      'CLAUDE.md': 'Run npm test before answering.\n',
      'GEMINI.md': 'The same, for Gemini.\n',
    })
    expect(system).toContain('# Project instructions (CLAUDE.md)\n\nRun npm test before answering.')
    expect(system).not.toContain('GEMINI.md')
  })

  it('reads GEMINI.md when it is the only one', async () => {
    const system = await systemPrompt({'GEMINI.md': 'Use tabs.\n'})
    expect(system).toContain('# Project instructions (GEMINI.md)\n\nUse tabs.')
  })

  it('leaves CLAUDE.md and GEMINI.md out when AGENTS.md is there', async () => {
    const system = await systemPrompt({
      'AGENTS.md': 'Answer in English.\n',
      'CLAUDE.md': 'Answer in French.\n',
      'GEMINI.md': 'Answer in German.\n',
    })
    expect(system).toContain('# Project instructions (AGENTS.md)\n\nAnswer in English.')
    expect(system).not.toContain('French')
    expect(system).not.toContain('German')
  })

  it('sends the sections, the git snapshot, AGENTS.md from the root down to cwd and their @imports (system_contains)', async () => {
    const git = (...args: string[]) => execFileSync('git', ['-C', dirs.project, ...args], {env: dirs.box.env})
    git('init', '-q', '-b', 'trunk')
    mkdirSync(join(dirs.project, 'pkg', 'docs'), {recursive: true})
    writeFileSync(join(dirs.project, 'AGENTS.md'), 'Root rules.\n')
    writeFileSync(join(dirs.project, 'pkg', 'AGENTS.md'), 'Package rules; style in @docs/style.md\n')
    writeFileSync(join(dirs.project, 'pkg', 'docs', 'style.md'), 'Use tabs.\n')
    writeFileSync(join(dirs.project, 'pkg', 'notes.txt'), 'untracked\n')
    const wanted = [
      '# Using the tools\n- Search file contents with fs_grep and find files by name with fs_glob',
      '# Git safety\n- Never commit, push',
      '# Verification\n',
      '# Communication\n',
      '# Safety\n',
      '- Branch: trunk\n- Status:\n    ?? AGENTS.md\n    ?? pkg/',
      '# Project instructions (AGENTS.md)\n\nRoot rules.',
      '# Project instructions (pkg/AGENTS.md)\n\nPackage rules',
      '# Project instructions (pkg/docs/style.md, imported by pkg/AGENTS.md)\n\nUse tabs.',
    ]
    model = await startFakeModel({
      turns: wanted.map((text, index) => ({
        expect: {system_contains: text},
        ...(index < wanted.length - 1
          ? {tool_calls: [{arguments: {path: 'AGENTS.md'}, name: 'fs_read'}]}
          : {text: 'Done.'}),
      })),
    })
    const result = await runCli(['run', 'hello', '--base-url', model.url, '--permission-mode', 'allow-all'], {
      cwd: join(dirs.project, 'pkg'),
      env: dirs.box.env,
    })
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toContain('Done.')
    // Every turn sends the same system prompt, byte for byte.
    const systems = model.requests.map((r) => (r.body as {messages: Array<{content: string}>}).messages[0].content)
    expect(new Set(systems).size).toBe(1)
    expect(systems[0]).toContain(`- Working directory: ${join(dirs.project, 'pkg')}`)
  })
})
