import {existsSync} from 'node:fs'
import {Config} from '@oclif/core'
import type {AgentSession, SlashCommandResult} from '@hanzo-dev/sdk'
import {afterEach, beforeAll, describe, expect, it} from 'vitest'

import {openAgentSession} from '../../../src/adapters/agent-session/index.js'
import type {Script} from '../../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../../src/testing/fake-model/server.js'
import {REPO_ROOT, useSandboxDirs} from '../../../test/helpers/cli.js'
import {addOrigin, makeRepo, type Repo, writeHook} from './git-fixture.js'

// The git slash commands as the interactive session gets them: collected from the plugin's
// contribution by a real session (the CLI's plugins loaded), run on a real repository, the
// commit message from the scripted model through a side session of that session.
describe('the git slash commands', () => {
  const dirs = useSandboxDirs('hanzo-git-slash-')
  let cliConfig: Config
  let model: FakeModel | undefined
  let session: AgentSession | undefined

  beforeAll(async () => {
    cliConfig = await Config.load(REPO_ROOT)
  })
  afterEach(async () => {
    await session?.close()
    await model?.close()
    session = undefined
    model = undefined
  })

  async function open(repo: Repo, script: Script) {
    model = await startFakeModel(script)
    session = await openAgentSession({
      baseURL: model.url,
      cliConfig,
      cwd: repo.dir,
      env: repo.env,
      permissionMode: 'deny',
      session: {record: false},
      warn: () => {},
    })
    const opened = session
    return async (line: string): Promise<SlashCommandResult | undefined> => {
      const [name, ...argv] = line.slice(1).split(' ')
      const found = opened.slashCommands().find((c) => c.definition.name === name)
      if (!found) throw new Error(`no /${name}`)
      return found.definition.run({
        args: argv.join(' '),
        argv,
        cwd: repo.dir,
        session: opened,
        signal: new AbortController().signal,
      })
    }
  }

  it('come from the git plugin; /diff gives the change as context, /commit commits with the model message, /branch and /stash act', async () => {
    const repo = makeRepo(dirs.box)
    repo.write('README.md', 'hello\nworld\n')
    const slash = await open(repo, {
      turns: [
        {
          expect: {last_user_contains: '+world', system_contains: 'Conventional Commits'},
          text: 'docs(readme): greet the world',
        },
      ],
    })
    expect(
      session!
        .slashCommands()
        .filter((c) => c.plugin === '@hanzo-dev/plugin-git')
        .map((c) => c.definition.name),
    ).toEqual(['branch', 'commit', 'commit-push-pr', 'worktree', 'diff', 'stash'])

    const diff = await slash('/diff')
    expect(diff?.message).toBe('1 file(s) changed, +1 -0; added as context for your next prompt:\n  M README.md +1 -0')
    expect(diff?.context).toContain('+world')

    const commit = await slash('/commit')
    const sha = repo.git('rev-parse', 'HEAD')
    expect(commit?.message).toBe(`Committed [main ${sha.slice(0, 7)}] docs(readme): greet the world\n1 file(s) changed`)
    expect(repo.git('log', '-1', '--format=%s')).toBe('docs(readme): greet the world')
    // The side session was offered no tools.
    const body = model!.requests.find((r) => r.method === 'POST')!.body as {tools?: unknown[]}
    expect(body.tools ?? []).toEqual([])
    expect(await slash('/commit')).toEqual({message: 'Nothing to commit.'})
    expect(await slash('/diff')).toEqual({message: 'No changes against HEAD.'})

    expect(await slash('/branch feature/greeting')).toEqual({message: 'Switched to a new branch feature/greeting'})
    expect(repo.git('branch', '--show-current')).toBe('feature/greeting')
    await expect(slash('/branch')).rejects.toThrow('Usage: /branch NAME')

    repo.write('README.md', 'changed\n')
    expect((await slash('/stash half done'))?.message).toBe(
      'Stashed as stash@{0}: half done (git stash pop brings it back)',
    )
    expect(repo.git('status', '--porcelain')).toBe('')
    expect(await slash('/stash')).toEqual({message: 'Nothing to stash.'})
  })

  it('/commit shows what a commit hook said when it rejects the commit (the prompt captured it)', async () => {
    const repo = makeRepo(dirs.box)
    writeHook(repo, 'pre-commit', '#!/bin/sh\necho "lint: README.md needs a title" >&2\nexit 1\n')
    repo.write('README.md', 'hello\nworld\n')
    const slash = await open(repo, {turns: [{text: 'docs(readme): add world'}]})
    await expect(slash('/commit')).rejects.toThrow(
      /^A commit hook rejected the commit; .*\n {2}lint: README\.md needs a title$/s,
    )
  })

  it('/worktree makes the tree beside the repository; /commit-push-pr commits on a new branch and pushes it (no gh: the compare URL is for later)', async () => {
    const repo = makeRepo(dirs.box)
    const bare = addOrigin(dirs.box, repo)
    const slash = await open(repo, {
      turns: [{expect: {system_contains: 'Conventional Commits'}, text: 'feat(cli): add a flag'}],
    })
    const made = await slash('/worktree spike')
    expect(made?.message).toBe(`Made a working tree for the new branch spike: ${dirs.box.home}/repo-spike`)
    expect(existsSync(`${dirs.box.home}/repo-spike/README.md`)).toBe(true)

    repo.write('README.md', 'hello\nflag\n')
    const result = await slash('/commit-push-pr')
    expect(result?.message).toMatch(
      /^Created the branch feat\/cli-add-a-flag \(from main\) for the pull request.\nCommitted \[feat\/cli-add-a-flag [\da-f]{7}] feat\(cli\): add a flag\n1 file\(s\) changed\nPushed feat\/cli-add-a-flag to origin\nNo pull request: /,
    )
    expect(repo.git('--git-dir', bare, 'log', '-1', '--format=%s', 'feat/cli-add-a-flag')).toBe('feat(cli): add a flag')
  })
})
