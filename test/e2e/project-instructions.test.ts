import {writeFileSync} from 'node:fs'
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
})
