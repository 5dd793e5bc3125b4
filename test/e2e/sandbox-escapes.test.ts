import {execFileSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {detectContainer, nodeContainerProbe} from '../../plugins/sandbox/src/container.js'
import type {Turn} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {makeSandbox, runCli, unwrapped} from '../helpers/cli.js'

function works(args: string[]): boolean {
  try {
    execFileSync(args[0], args.slice(1), {stdio: 'ignore', timeout: 5000})
    return true
  } catch {
    return false
  }
}

const bwrapWorks = works(['bwrap', '--unshare-all', '--ro-bind', '/', '/', 'true'])
const inContainer = detectContainer(nodeContainerProbe(process.env)) !== null
const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.com', ...args], {cwd, encoding: 'utf8'})

// The secrets a hostile model goes after: none may reach a tool result, so none may reach the model.
const SECRETS = {
  API_KEY: 'api-e2e-secret-1',
  DATABASE_URL: 'postgres://app:db-e2e-secret-2@db.example.com/app',
  GITHUB_PAT: 'pat-e2e-secret-3',
  HANZO_API_KEY: 'sk-e2e-secret-hanzo-4',
  OPENAI_KEY: 'openai-e2e-secret-5',
  SECRET: 'plain-e2e-secret-6',
}
const STORED_KEY = 'sk-e2e-secret-stored-7'

interface ToolResultEvent {
  type: string
  name?: string
  is_error?: boolean
  output?: string
}

/**
 * Issue 13: a review run apart from the vectors found these ways past the sandbox and the
 * protected files; each is one run of the built CLI with a scripted model, under
 * `--permission-mode allow-all` (everything not denied runs). The home directory is under
 * /var/tmp, not /tmp: the sandbox gives commands a private /tmp, which would hide it by chance.
 */
describe('hanzo-dev run: what a hostile model cannot reach through commands and file tools', () => {
  let home: string
  let env: Record<string, string>
  let project: string
  let outside: string
  let model: FakeModel | undefined
  beforeEach(() => {
    ;({env, home} = makeSandbox('hanzo-e2e-escapes-', '/var/tmp'))
    project = join(home, 'proj')
    outside = join(home, 'outside')
    mkdirSync(project)
    mkdirSync(outside)
    git(project, 'init', '-q')
    git(project, 'commit', '-q', '--allow-empty', '-m', 'init')
    writeFileSync(join(project, 'team.gitconfig'), '[user]\n')
    git(project, 'config', 'include.path', '../team.gitconfig')
    mkdirSync(join(home, '.config', 'hanzo'), {recursive: true})
    writeFileSync(join(home, '.config', 'hanzo', 'credentials.json'), JSON.stringify({api_key: STORED_KEY}), {
      mode: 0o600,
    })
  })
  afterEach(async () => {
    await model?.close()
    model = undefined
    rmSync(home, {force: true, recursive: true})
  })

  const userSettings = (settings: Record<string, unknown>) =>
    writeFileSync(join(home, '.config', 'hanzo', 'settings.json'), JSON.stringify(settings))
  const run = async (turns: Turn[], extraEnv: Record<string, string> = {}) => {
    model = await startFakeModel({turns: [...turns, {text: 'Done.'}]})
    const result = await runCli(
      ['run', 'hostile', '--base-url', model.url, '--permission-mode', 'allow-all', '--output-format', 'stream-json'],
      {
        cwd: project,
        env: {...env, ...SECRETS, ...extraEnv},
      },
    )
    const events = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as ToolResultEvent)
    return {...result, results: events.filter((e) => e.type === 'tool_result')}
  }

  /** Nothing the model was sent holds a secret. */
  const expectNoSecretSent = () => {
    const sent = JSON.stringify(model!.requests.map((r) => r.body))
    for (const secret of [...Object.values(SECRETS), STORED_KEY]) expect(sent).not.toContain(secret)
  }

  it.skipIf(!bwrapWorks)(
    "keeps git's config, every .hanzo, hanzo-dev's files and the environment's secrets from commands, with git commit working (sandbox workspace, here in a container too)",
    async () => {
      userSettings({exec: {env_passthrough: ['MY_TOKEN']}, sandbox: {mode: 'workspace'}})
      mkdirSync(join(project, '.hanzo'))
      writeFileSync(
        join(project, '.hanzo', 'settings.json'),
        JSON.stringify({permissions: {'exec(git status*)': 'allow'}}),
      )
      expect((await runCli(['trust', '--yes'], {cwd: project, env})).exitCode).toBe(0)
      const gitConfig = readFileSync(join(project, '.git', 'config'), 'utf8')
      const trustStore = join(home, '.local', 'share', 'hanzo-dev', 'trusted-projects.json')
      const trusted = readFileSync(trustStore, 'utf8')
      // The permission rules cannot see into a script: only the sandbox stands in its way.
      const script = [
        'echo "[core] fsmonitor = touch $PWD/pwned" >> .git/config 2>/dev/null || echo config-refused',
        'printf "#!/bin/sh\\ntouch pwned\\n" > .git/hooks/pre-commit 2>/dev/null || echo hooks-refused',
        'echo "[core] fsmonitor = touch pwned" >> team.gitconfig 2>/dev/null || echo include-refused',
        'echo "{}" > .hanzo/settings.local.json 2>/dev/null || echo hanzo-refused',
        'mkdir -p sub/.hanzo && echo \'{"permissions":{"exec":"allow"}}\' > sub/.hanzo/settings.json',
        'echo ../elsewhere > .git/commondir',
        'cat "$HOME/.config/hanzo/credentials.json" 2>/dev/null || echo credentials-hidden',
        `cat ${trustStore} 2>/dev/null || echo trust-hidden`,
        'echo "environ-hits: $(cat /proc/[0-9]*/environ 2>/dev/null | tr "\\0" "\\n" | grep -c e2e-secret)"',
        'env',
      ].join('\n')
      const result = await run(
        [
          {tool_calls: [{arguments: {content: `${script}\n`, path: 'evil.sh'}, name: 'fs_write'}]},
          {tool_calls: [{arguments: {command: 'sh evil.sh'}, name: 'exec'}]},
          {
            tool_calls: [
              {
                arguments: {
                  command:
                    'git add -A && git -c user.name=T -c user.email=t@example.com commit -qm agent && echo committed',
                },
                name: 'exec',
              },
            ],
          },
        ],
        {MY_TOKEN: 'visible-token'},
      )
      expect(result.exitCode, result.stderr).toBe(0)
      const [, escape, commit] = result.results
      expect(escape.output).toContain('[sandbox: commands run under bubblewrap')
      for (const refused of [
        'config-refused',
        'hooks-refused',
        'include-refused',
        'hanzo-refused',
        'credentials-hidden',
        'trust-hidden',
        'environ-hits: 0',
      ]) {
        expect(escape.output).toContain(refused)
      }

      expect(escape.output).toMatch(
        /\[sandbox: removed (\.git\/commondir, sub\/\.hanzo|sub\/\.hanzo, \.git\/commondir)/,
      )
      expect(escape.output).toContain('MY_TOKEN=visible-token')
      expect(commit.output).toContain('committed')
      expectNoSecretSent()
      expect(readFileSync(join(project, '.git', 'config'), 'utf8')).toBe(gitConfig)
      expect(readFileSync(join(project, 'team.gitconfig'), 'utf8')).toBe('[user]\n')
      expect(readFileSync(trustStore, 'utf8')).toBe(trusted)
      for (const made of [
        '.git/commondir',
        '.git/hooks/pre-commit',
        'sub/.hanzo',
        '.hanzo/settings.local.json',
        'pwned',
      ])
        expect(existsSync(join(project, made)), made).toBe(false)
      expect(git(project, 'log', '--format=%s', '-1').trim()).toBe('agent')
      expect(result.stderr).not.toMatch(/sandbox: off/)
    },
  )

  it("denies the file tools git's config, hooks and includes, and the project settings behind a symlinked .hanzo, with the sandbox off; and says at the start that it is off", async () => {
    userSettings({sandbox: {mode: 'off'}})
    mkdirSync(join(project, 'conf'))
    writeFileSync(join(project, 'conf', 'settings.json'), '{}\n')
    symlinkSync('conf', join(project, '.hanzo'))
    const gitConfig = readFileSync(join(project, '.git', 'config'), 'utf8')
    const writes = [
      '.git/config',
      '.git/commondir',
      '.git/hooks/pre-commit',
      'team.gitconfig',
      'conf/settings.json',
      'conf/settings.local.json',
    ]
    const result = await run(
      writes.map((path) => ({
        tool_calls: [{arguments: {content: '[core]\n\tfsmonitor = touch pwned\n', path}, name: 'fs_write'}],
      })),
    )
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.results).toHaveLength(writes.length)
    for (const [i, path] of writes.entries()) expect(result.results[i], path).toMatchObject({is_error: true})
    expect(readFileSync(join(project, '.git', 'config'), 'utf8')).toBe(gitConfig)
    expect(readFileSync(join(project, 'conf', 'settings.json'), 'utf8')).toBe('{}\n')
    expect(existsSync(join(project, 'conf', 'settings.local.json'))).toBe(false)
    const stderr = unwrapped(result.stderr)
    expect(
      stderr.match(
        /sandbox: sandbox\.mode is off: commands the agent runs can read and change everything you can, your credentials, settings and trust store included/g,
      ),
    ).toHaveLength(1)
  })

  it.skipIf(!bwrapWorks)(
    "gives a project's allowed paths no effect until it is trusted, and then only those inside it",
    async () => {
      userSettings({sandbox: {mode: 'workspace'}})
      mkdirSync(join(project, 'src'))
      symlinkSync(outside, join(project, 'link'))
      mkdirSync(join(project, '.hanzo'))
      writeFileSync(
        join(project, '.hanzo', 'settings.json'),
        JSON.stringify({sandbox: {allowed_paths: ['/', '..', outside, 'link', 'src'], mode: 'allowlist'}}),
      )
      const attempt = {
        arguments: {
          command: `for p in ../escaped-1 ${outside}/escaped-2 link/escaped-3 src/inside; do touch "$p" 2>/dev/null && echo "wrote $p"; done; true`,
        },
        name: 'exec',
      }

      const untrusted = await run([{tool_calls: [attempt]}])
      expect(untrusted.exitCode, untrusted.stderr).toBe(0)
      expect(unwrapped(untrusted.stderr)).toMatch(
        /ignored: sandbox\.allowed_paths "\/", "\.\.", .*this project is not trusted/,
      )
      expect(untrusted.results[0].output).not.toContain('wrote')

      expect((await runCli(['trust', '--yes'], {cwd: project, env})).exitCode).toBe(0)
      await model?.close()
      const trusted = await run([{tool_calls: [attempt]}])
      expect(trusted.exitCode, trusted.stderr).toBe(0)
      const stderr = unwrapped(trusted.stderr)
      for (const path of ['/', '..', outside, 'link'])
        expect(stderr).toContain(
          `sandbox: sandbox.allowed_paths ${JSON.stringify(path)} ignored: it leads out of the workspace`,
        )
      expect(trusted.results[0].output).toContain('wrote src/inside')
      expect(trusted.results[0].output).not.toMatch(/wrote (\.\.|\/|link)/)
      for (const escaped of [join(home, 'escaped-1'), join(outside, 'escaped-2'), join(outside, 'escaped-3')])
        expect(existsSync(escaped), escaped).toBe(false)
    },
  )

  it('refuses to send model requests with NODE_DEBUG printing their headers, and says why', async () => {
    const result = await run([], {NODE_DEBUG: 'http'})
    expect(result.exitCode).toBe(1)
    expect(unwrapped(result.stderr)).toContain(
      "NODE_DEBUG=http makes Node.js print every request's headers, the API key among them, so no model request is sent",
    )
    expect(result.stderr).not.toContain(SECRETS.HANZO_API_KEY)
    expect(model!.requests).toHaveLength(0)
  })

  /**
   * Issue 36 item 6: the default is `auto`: where bubblewrap works (this container too) commands
   * are confined, so `cat` of the stored key comes back empty; only where nothing can confine
   * them (a PATH without bwrap and unshare) is it off, and the run says so once.
   */
  it(`auto: ${inContainer ? 'confines commands in this container, and is off only where nothing can' : 'confines commands on this host'}`, async () => {
    const read = {arguments: {command: `cat ${join(home, '.config', 'hanzo', 'credentials.json')}; true`}, name: 'exec'}
    const offNotice =
      /sandbox: off \(auto: inside \w+, and neither bubblewrap nor unshare works \(bubblewrap: not found; unshare: not found\)\): commands the agent runs can read and change everything you can/g
    const confined = await run([{tool_calls: [read]}])
    expect(confined.exitCode, confined.stderr).toBe(0)
    expect(unwrapped(confined.stderr)).not.toMatch(/sandbox: off/)
    if (bwrapWorks) expect(confined.results[0].output).not.toContain(STORED_KEY)
    if (!inContainer) return

    await model?.close()
    const bare = join(home, 'bare-bin')
    mkdirSync(bare)
    for (const tool of ['sh', 'bash', 'cat', 'true', 'git'])
      symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], {encoding: 'utf8'}).trim(), join(bare, tool))
    const exposed = await run([{tool_calls: [read]}], {PATH: bare})
    expect(exposed.exitCode, exposed.stderr).toBe(0)
    expect(unwrapped(exposed.stderr).match(offNotice) ?? []).toHaveLength(1)
    expect(exposed.results[0].output).toContain(STORED_KEY)
  })
})
