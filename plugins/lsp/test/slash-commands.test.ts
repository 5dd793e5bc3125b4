import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {lspSlashCommands} from '../src/slash-commands.js'
import {makeManager, makeTsProject} from './lsp-fixture.js'

const context = {args: '', argv: [], cwd: '/', signal: new AbortController().signal}

describe('/lsp', () => {
  let box: Sandbox
  beforeEach(() => {
    box = makeSandbox('hanzo-lsp-slash-')
  })
  afterEach(() => box.cleanup())

  it("lists this project's languages with the server found, not started until a file needs it (and /lsp starts none)", async () => {
    const project = join(box.home, 'project')
    makeTsProject(project, {'src/a.ts': 'export const a = 1\n'})
    const {manager} = makeManager(project)
    const [command] = lspSlashCommands(manager, {PATH: process.env.PATH})
    const message = (await command.run(context))?.message ?? ''
    expect(message).toMatch(
      /^Language servers:\n {2}TypeScript[^:]*: not started; typescript-language-server \(.*node_modules\/\.bin\/typescript-language-server\)$/m,
    )
    expect((await manager.states()).every((s) => s.state === 'not started')).toBe(true)
  })

  it('says so when no language of the project has a server', async () => {
    const project = join(box.home, 'empty')
    mkdirSync(project)
    const {manager} = makeManager(project)
    expect((await lspSlashCommands(manager, {PATH: ''})[0].run(context))?.message).toMatch(
      /^No language server for the languages of this project/,
    )
  })
})
