import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {REPO_ROOT, runCli, unwrapped, useSandboxDirs} from '../helpers/cli.js'

const BODY = 'Bump the version in package.json, then tag it.'

describe('skills in run', () => {
  const dirs = useSandboxDirs('hanzo-skills-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  const cli = (args: string[]) => runCli(args, {cwd: dirs.project, env: dirs.box.env})
  const writeSkill = (dir: string, name: string, description: string, files: Record<string, string> = {}) => {
    mkdirSync(join(dir, name), {recursive: true})
    writeFileSync(join(dir, name, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${BODY}\n`)
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, name, file), text)
  }

  const projectSkills = () => join(dirs.project, '.hanzo', 'skills')
  /** Everything the model was sent before its `n`th answer, as text. */
  const sent = (n: number) => JSON.stringify(model!.requests.filter((r) => r.method === 'POST')[n].body)

  it("lists a trusted project's skill to the model, and sends its body only after the model calls skill", async () => {
    writeSkill(projectSkills(), 'release', 'Cut a release of this package')
    expect((await cli(['trust', '--yes'])).exitCode).toBe(0)
    model = await startFakeModel({
      turns: [
        {
          expect: {system_contains: '- release: Cut a release of this package', tools_include: ['skill']},
          tool_calls: [{arguments: {name: 'release'}, name: 'skill'}],
        },
        {expect: {tool_result_contains: BODY}, text: 'Released.'},
      ],
    })
    const result = await cli(['run', 'cut a release', '--base-url', model.url])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Released.')
    expect(sent(0)).not.toContain(BODY)
    expect(sent(1)).toContain(BODY)
  })

  it('lists no skill of an untrusted project, and offers no skill tool, saying why on stderr', async () => {
    writeSkill(projectSkills(), 'release', 'Cut a release of this package')
    model = await startFakeModel({turns: [{expect: {tools_exclude: ['skill']}, text: 'Nothing to load.'}]})
    const result = await cli(['run', 'cut a release', '--base-url', model.url])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(unwrapped(result.stderr)).toContain('ignored: 1 skill in .hanzo/skills (this project is not trusted)')
    expect(sent(0)).not.toContain('Cut a release')
  })

  it("loads a user skill and one of its files, outside the workspace, and nothing outside the skill's folder", async () => {
    const userSkills = join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'skills')
    writeSkill(userSkills, 'pdf', 'Fill PDF forms', {'fill.py': 'print("filled")\n'})
    writeFileSync(join(userSkills, '..', 'notes.txt'), 'not a skill file')
    model = await startFakeModel({
      turns: [
        {
          expect: {system_contains: '- pdf: Fill PDF forms'},
          tool_calls: [{arguments: {name: 'pdf'}, name: 'skill'}],
        },
        {
          expect: {tool_result_contains: '- fill.py'},
          tool_calls: [{arguments: {file: 'fill.py', name: 'pdf'}, name: 'skill'}],
        },
        {
          expect: {tool_result_contains: 'print("filled")'},
          tool_calls: [{arguments: {file: '../../notes.txt', name: 'pdf'}, name: 'skill'}],
        },
        {expect: {tool_result_contains: "../../notes.txt is outside the skill's folder"}, text: 'Filled.'},
      ],
    })
    const result = await cli(['run', 'fill the form', '--base-url', model.url])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Filled.')
  })

  it('loads a skill a plugin contributes', async () => {
    const dataDir = join(dirs.box.env.XDG_DATA_HOME, 'hanzo-dev')
    mkdirSync(dataDir, {recursive: true})
    const plugins = [
      {name: 'hanzo-fixture-ok', root: join(REPO_ROOT, 'test', 'fixtures', 'plugins', 'ok'), type: 'link'},
    ]
    writeFileSync(join(dataDir, 'package.json'), JSON.stringify({name: 'hanzo-dev', oclif: {plugins, schema: 1}}))
    model = await startFakeModel({
      turns: [
        {
          expect: {system_contains: '- fixture-notes: Take notes the fixture way (test fixture)'},
          tool_calls: [{arguments: {name: 'fixture-notes'}, name: 'skill'}],
        },
        {expect: {tool_result_contains: 'starting with the date'}, text: 'Noted.'},
      ],
    })
    const result = await cli(['run', 'take a note', '--base-url', model.url])
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Noted.')
  })
})
