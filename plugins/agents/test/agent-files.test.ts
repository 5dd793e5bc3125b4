import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {useSandboxDirs} from '../../../test/helpers/cli.js'
import {agentDirs, AgentFileError, loadAgents, parseAgentFile} from '@hanzo-dev/sdk/agent-files'
import {parseFrontMatter} from '@hanzo-dev/sdk/front-matter'

const thrown = (f: () => unknown): Error => {
  try {
    f()
  } catch (error) {
    return error as Error
  }

  throw new Error('did not throw')
}

describe('front matter', () => {
  it('reads plain, quoted and list values, skips comments and blank lines, keeps the body', () => {
    const parsed = parseFrontMatter(
      '---\nname: a\n\n# a comment\ndescription: "x: y"\ntools: [fs_read, \'fs_grep\']\n---\n\nThe body.\n',
    )
    expect(parsed).toEqual({body: 'The body.', fields: {description: 'x: y', name: 'a', tools: ['fs_read', 'fs_grep']}})
  })

  it.each([
    ['no opening line', 'name: a\n', 1],
    ['a nested key', '---\nname:\n  sub: 1\n---\n', 3],
    ['an unclosed list', '---\ntools: [a, b\n---\n', 2],
    ['a block scalar', '---\ndescription: |\n---\n', 2],
    ['a key set twice', '---\nname: a\nname: b\n---\n', 3],
  ])('refuses %s, naming the line', (_, text, line) => {
    expect(thrown(() => parseFrontMatter(text))).toMatchObject({line})
  })
})

describe('agent files', () => {
  const file = '/agents/reviewer.md'
  it('defaults the name to the file name and the tools to read-only', () => {
    expect(parseAgentFile('---\ndescription: Reviews\n---\nYou review.\n', file, 'user')).toEqual({
      description: 'Reviews',
      file,
      model: undefined,
      name: 'reviewer',
      permissionMode: undefined,
      source: 'user',
      systemPrompt: 'You review.',
      tools: 'read-only',
    })
  })

  it.each([
    ['description', '---\nname: x\n---\nbody', 'is required'],
    [
      'permission_mode',
      '---\ndescription: d\npermission_mode: yolo\n---\nbody',
      '"yolo" is not one of prompt, allow-reads, deny, allow-all',
    ],
    ['tools', '---\ndescription: d\ntools: [fs read]\n---\nbody', '"fs read" is not a tool name'],
    ['colour', '---\ndescription: d\ncolour: red\n---\nbody', 'unknown field'],
    ['body', '---\ndescription: d\n---\n', 'is empty'],
  ])('names the file and the field `%s`', (field, text, problem) => {
    const error = thrown(() => parseAgentFile(text, file, 'user'))
    expect(error).toBeInstanceOf(AgentFileError)
    expect(error.message).toContain(`${file}: \`${field}\`: `)
    expect(error.message).toContain(problem)
  })

  it("refuses a project agent's permission mode that answers for the user, and keeps a stricter one", () => {
    for (const mode of ['allow-all', 'allow-reads']) {
      const error = thrown(() =>
        parseAgentFile(`---\ndescription: d\npermission_mode: ${mode}\n---\nbody`, file, 'project'),
      )
      expect(error.message).toContain(`${file}: \`permission_mode\`: a project's agent may not set ${mode}`)
      expect(
        parseAgentFile(`---\ndescription: d\npermission_mode: ${mode}\n---\nbody`, file, 'user').permissionMode,
      ).toBe(mode)
    }

    expect(
      parseAgentFile('---\ndescription: d\npermission_mode: deny\n---\nbody', file, 'project').permissionMode,
    ).toBe('deny')
  })
})

describe('loading agents', () => {
  const dirs = useSandboxDirs('hanzo-agents-', 'project', 'config')
  const write = (dir: string, name: string, text: string) => {
    mkdirSync(dir, {recursive: true})
    writeFileSync(join(dir, name), text)
  }

  it('reads the user agents always, the project ones only when trusted, the project winning a name', async () => {
    const where = agentDirs(dirs.project, dirs.config, false)
    write(where.user, 'helper.md', '---\ndescription: user helper\n---\nU')
    write(where.user, 'notes.txt', 'not an agent')
    write(where.project, 'helper.md', '---\ndescription: project helper\ntools: all\n---\nP')
    const untrusted = await loadAgents(where)
    expect(untrusted.agents.map((a) => [a.name, a.description])).toEqual([['helper', 'user helper']])
    expect(untrusted.untrusted).toEqual([join(where.project, 'helper.md')])
    const trusted = await loadAgents({...where, projectTrusted: true})
    expect(trusted.agents.map((a) => [a.name, a.description, a.tools])).toEqual([['helper', 'project helper', 'all']])
  })

  it('refuses two files of one name in one directory, naming both', async () => {
    const where = agentDirs(dirs.project, dirs.config, false)
    write(where.user, 'a.md', '---\nname: same\ndescription: one\n---\nA')
    write(where.user, 'b.md', '---\nname: same\ndescription: two\n---\nB')
    await expect(loadAgents(where)).rejects.toThrow(
      `${join(where.user, 'b.md')}: \`name\`: the name "same" is taken by ${join(where.user, 'a.md')}`,
    )
  })
})
