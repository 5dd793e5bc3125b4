import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {CLI, makeSandbox, runCli, type Sandbox} from '../helpers/cli.js'

describe('hanzo-dev config', () => {
  let box: Sandbox
  let repo: string
  let userFile: string
  let projectFile: string
  let localFile: string
  const run = (args: string[], env: Record<string, string> = {}) => runCli(args, {cwd: repo, env: {...box.env, ...env}})

  beforeEach(() => {
    box = makeSandbox()
    repo = join(box.home, 'repo')
    mkdirSync(join(repo, '.git'), {recursive: true})
    userFile = join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
    projectFile = join(repo, '.hanzo', 'settings.json')
    localFile = join(repo, '.hanzo', 'settings.local.json')
  })
  afterEach(() => box.cleanup())

  /** oclif wraps long warnings and errors at spaces, continuing with ` ›   `: undone so a message matches whole. */
  const flat = (stderr: string) => stderr.replaceAll(/\s*\n ›\s+/g, ' ')

  const write = (file: string, content: string) => {
    mkdirSync(join(file, '..'), {recursive: true})
    writeFileSync(file, content)
  }

  it('names the file, line and column of a malformed file, without a stack trace', async () => {
    write(projectFile, '{\n  "model": "m",\n}\n')
    const {exitCode, stderr, stdout} = await run(['config', 'list'])
    expect(exitCode).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain(projectFile)
    expect(stderr).toContain('line 3, column 1')
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it('ends config get, config set and run with an error naming a file nested 10,000 levels deep (user or project, known key or not)', async () => {
    const deep = (depth: number) => `${'{"a": '.repeat(depth)}1${'}'.repeat(depth)}`
    const cases = [
      {file: userFile, text: `{"model": "m", "unknown_key": ${deep(10_000)}}`},
      {file: projectFile, text: `{"permissions": ${deep(10_000)}}`},
    ]
    for (const {file, text} of cases) {
      write(file, text)
      for (const args of [
        ['config', 'get', 'model'],
        ['config', 'set', 'max_tokens', '100', '--tier', file === userFile ? 'user' : 'project'],
        ['run', 'hi'],
      ]) {
        const {exitCode, stderr, stdout} = await run(args)
        expect(exitCode, `${args.join(' ')}: ${stderr}`).toBe(1)
        expect(stdout).toBe('')
        expect(flat(stderr)).toContain(`Cannot use settings file ${file}: at line 1, column`)
        expect(flat(stderr)).toContain('nested more than 64 levels deep')
        expect(stderr).not.toMatch(/RangeError|\n\s+at /)
      }

      expect(readFileSync(file, 'utf8')).toBe(text)
      write(file, '{}')
    }
  })

  it('sets, gets and unsets a key', async () => {
    expect((await run(['config', 'get', 'model'])).stdout).toBe('claude-sonnet-4-20250514')
    const set = await run(['config', 'set', 'model', 'gpt-4o'])
    expect(set.exitCode).toBe(0)
    expect(set.stdout).toContain(userFile)
    expect((await run(['config', 'get', 'model'])).stdout).toBe('gpt-4o')

    await run(['config', 'set', 'mcp_servers.fs', '{"command":["npx","-y"]}', '--tier', 'project'])
    expect(JSON.parse((await run(['config', 'get', 'mcp_servers.fs.command'])).stdout)).toEqual(['npx', '-y'])
    await run(['config', 'set', 'max_tokens', '8000'])
    expect(JSON.parse(readFileSync(userFile, 'utf8'))).toEqual({max_tokens: 8000, model: 'gpt-4o'})

    expect((await run(['config', 'unset', 'model'])).exitCode).toBe(0)
    expect((await run(['config', 'get', 'model'])).stdout).toBe('claude-sonnet-4-20250514')
    expect((await run(['config', 'unset', 'model'])).exitCode).toBe(1)
  })

  it('exits 1 with nothing on stdout for an unset key', async () => {
    const {exitCode, stdout} = await run(['config', 'get', 'custom_instructions'])
    expect(exitCode).toBe(1)
    expect(stdout).toBe('')
  })

  it('shows where each value comes from', async () => {
    write(userFile, JSON.stringify({api_key: 'sk-user-secret-1', model: 'user-model'}))
    write(projectFile, JSON.stringify({custom_instructions: 'be brief'}))
    const {stdout} = await run(['config', 'list', '--show-origin'], {HANZO_MODEL: 'env-model'})
    expect(stdout.split('\n')).toEqual(
      expect.arrayContaining([
        'env:HANZO_MODEL\tmodel=env-model',
        `file:${userFile}\tapi_key=[redacted]`,
        `file:${projectFile}\tcustom_instructions=be brief`,
      ]),
    )
    expect(stdout).not.toContain('sk-user-secret-1')
  })

  it('shows the shipped permission rules, which a configured rule for the same pattern replaces', async () => {
    write(localFile, JSON.stringify({permissions: {fs_grep: 'prompt'}}))
    const {stdout} = await run(['config', 'list', '--show-origin'])
    expect(stdout).toContain('default (built-in)\tpermissions.fs_read=allow')
    expect(stdout).not.toContain('default (built-in)\tpermissions.fs_grep')
    const shipped = JSON.parse((await run(['config', 'list', '--json'])).stdout).defaultPermissions
    expect(shipped).toMatchObject({
      fs_glob: 'allow',
      fs_list: 'allow',
      fs_read: 'allow',
      git_status: 'allow',
      lsp_hover: 'allow',
    })
    expect(shipped).not.toHaveProperty('fs_grep')
  })

  it('answers --json with credentials redacted', async () => {
    write(userFile, JSON.stringify({api_key: 'sk-user-secret-1', providers: {openai: {api_key: 'sk-user-secret-2'}}}))
    const list = await run(['config', 'list', '--json'])
    const parsed = JSON.parse(list.stdout)
    expect(parsed.config.api_key).toBe('[redacted]')
    expect(parsed.config.providers.openai.api_key).toBe('[redacted]')
    expect(parsed.origins.api_key).toBe(userFile)
    const get = JSON.parse((await run(['config', 'get', 'providers', '--json'])).stdout)
    expect(get).toEqual({key: 'providers', origin: `file:${userFile}`, value: {openai: {api_key: '[redacted]'}}})
    expect(list.stdout + JSON.stringify(get)).not.toContain('secret')
    expect(JSON.parse((await run(['config', 'path', '--json'])).stdout).projectRoot).toBe(repo)
  })

  it('refuses a credential in the project tier and warns about one found there', async () => {
    const refused = await run(['config', 'set', 'api_key', 'sk-project-secret', '--tier', 'project'])
    expect(refused.exitCode).toBe(1)
    expect(refused.stderr).toContain('api_key')
    expect(refused.stderr).not.toContain('sk-project-secret')
    expect(existsSync(projectFile)).toBe(false)
    const nested = await run([
      'config',
      'set',
      'providers.openai',
      '{"api_key":"sk-project-secret"}',
      '--tier',
      'local',
    ])
    expect(nested.exitCode).toBe(1)
    expect(nested.stderr).toContain('providers.openai.api_key')
    // Whatever the loader would ignore in a project file, `config set` refuses to write there.
    const url = await run(['config', 'set', 'mcp_servers.x.url', 'https://u:pwSECRET@h/', '--tier', 'project'])
    expect(url.exitCode).toBe(1)
    expect(flat(url.stderr)).toContain('mcp_servers.x.url: a URL with a user name or password is a credential')
    const args = await run([
      'config',
      'set',
      'mcp_servers.x',
      '{"command":"srv","args":["https://u:pwSECRET@h/"]}',
      '--tier',
      'local',
    ])
    expect(args.exitCode).toBe(1)
    expect(flat(args.stderr)).toContain('mcp_servers.x.args')
    const trust = await run(['config', 'set', 'allowed_base_url_hosts', '["evil.example"]', '--tier', 'project'])
    expect(trust.exitCode).toBe(1)
    for (const out of [url.stderr, url.stdout, args.stderr, args.stdout]) expect(out).not.toContain('pwSECRET')
    expect(existsSync(projectFile) || existsSync(localFile)).toBe(false)

    write(projectFile, JSON.stringify({api_key: 'sk-project-secret'}))
    const {exitCode, stderr, stdout} = await run(['config', 'get', 'api_key'])
    expect(exitCode).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toContain(projectFile)
    expect(stderr).toContain('api_key')
    expect(stderr).not.toContain('sk-project-secret')
  })

  it('adds a new local settings file to .gitignore, once, keeping what is there', async () => {
    writeFileSync(join(repo, '.gitignore'), 'node_modules')
    const first = await run(['config', 'set', 'input_mode', 'vim', '--tier', 'local'])
    expect(first.exitCode).toBe(0)
    expect(existsSync(localFile)).toBe(true)
    await run(['config', 'set', 'model', 'm', '--tier', 'local'])
    expect(readFileSync(join(repo, '.gitignore'), 'utf8')).toBe('node_modules\n.hanzo/settings.local.json\n')
  })

  it('keeps the other keys, their order and the indentation', async () => {
    write(
      projectFile,
      '{\n    "sandbox": {\n        "mode": "off"\n    },\n    "model": "m",\n    "__proto__": {"x": 1}\n}\n',
    )
    expect((await run(['config', 'set', 'sandbox.allowed_paths', '["/srv"]', '--tier', 'project'])).exitCode).toBe(0)
    expect(readFileSync(projectFile, 'utf8')).toBe(
      '{\n    "sandbox": {\n        "mode": "off",\n        "allowed_paths": [\n            "/srv"\n        ]\n    },\n    "model": "m",\n    "__proto__": {\n        "x": 1\n    }\n}\n',
    )
  })

  it('validates before writing', async () => {
    write(userFile, '{"model": "m"}\n')
    const bad = await run(['config', 'set', 'sandbox.mode', 'everywhere'])
    expect(bad.exitCode).toBe(1)
    expect(bad.stderr).toContain('sandbox.mode')
    const unknown = await run(['config', 'set', 'modle', 'x'])
    expect(unknown.exitCode).toBe(1)
    expect(unknown.stderr).toContain('Unknown setting')
    const inert = await run(['config', 'set', 'mcp_servers', '{"__proto__":{"command":"x"}}'])
    expect(inert.exitCode).toBe(1)
    expect(readFileSync(userFile, 'utf8')).toBe('{"model": "m"}\n')
  })

  it('refuses a provider that is neither built in nor defined, with the list, and takes one defined in any tier', async () => {
    write(userFile, '{"model": "m"}\n')
    const bad = await run(['config', 'set', 'provider', 'nosuch'])
    expect(bad.exitCode).toBe(1)
    expect(flat(bad.stderr)).toContain(`Unknown provider "nosuch"; ${userFile} was not changed`)
    expect(flat(bad.stderr)).toContain(
      'use one of anthropic, hanzo, lmstudio, ollama, openai, vllm, or define it first: hanzo-dev config set providers.nosuch.base_url <url>',
    )
    expect(bad.stderr).not.toMatch(/\n\s+at /)
    expect(readFileSync(userFile, 'utf8')).toBe('{"model": "m"}\n')

    expect((await run(['config', 'set', 'provider', 'ollama'])).exitCode).toBe(0)
    write(projectFile, '{"providers": {"corp": {"base_url": "https://llm.corp.example/v1"}}}\n')
    expect((await run(['config', 'set', 'provider', 'corp'])).exitCode).toBe(0)
    expect(JSON.parse(readFileSync(userFile, 'utf8'))).toEqual({model: 'm', provider: 'corp'})
  })

  it('leaves the old file in place when the write fails', async () => {
    const before = '{\n  "model": "m"\n}\n'
    write(userFile, before)
    // ulimit -f 1: a file may not grow past 512 bytes; Node ignores SIGXFSZ, so the write fails with EFBIG.
    const long = 'x'.repeat(4096)
    const result = await execa(
      'sh',
      ['-c', `ulimit -f 1; exec "${process.execPath}" "${CLI}" config set custom_instructions ${long}`],
      {
        cwd: repo,
        env: box.env,
        reject: false,
      },
    )
    expect(result.exitCode).toBe(1)
    expect(result.stderr).toContain('EFBIG')
    expect(result.stderr).not.toMatch(/\n\s+at /)
    expect(readFileSync(userFile, 'utf8')).toBe(before)
    expect(readdirSync(join(userFile, '..'))).toEqual(['settings.json'])
  })

  it('refuses to write through a symbolic link', async () => {
    const target = join(box.home, 'elsewhere.json')
    writeFileSync(target, '{}\n')
    mkdirSync(join(userFile, '..'), {recursive: true})
    symlinkSync(target, userFile)
    const {exitCode, stderr} = await run(['config', 'set', 'model', 'm'])
    expect(exitCode).toBe(1)
    expect(stderr).toContain('symbolic link')
    expect(readFileSync(target, 'utf8')).toBe('{}\n')
  })

  it('exits 2 on an unknown flag and names a bad HANZO_MAX_TOKENS', async () => {
    expect((await run(['config', 'list', '--nope'])).exitCode).toBe(2)
    const bad = await run(['config', 'get', 'max_tokens'], {HANZO_MAX_TOKENS: 'lots'})
    expect(bad.exitCode).toBe(1)
    expect(bad.stderr).toContain('HANZO_MAX_TOKENS')
  })

  it("never runs the repository's code: no .config/config.js (cosmiconfig's meta config), no $import", async () => {
    const marker = join(box.home, 'ran')
    const payload = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'); module.exports = {}\n`
    write(join(repo, '.config', 'config.js'), payload)
    write(join(repo, '.config', 'config.cjs'), payload)
    write(join(repo, '.hanzo', 'evil.cjs'), payload)
    write(projectFile, JSON.stringify({$import: './evil.cjs', model: 'm'}))
    const {exitCode, stderr, stdout} = await run(['config', 'get', 'model'])
    expect(stdout).toBe('m')
    expect(exitCode).toBe(0)
    expect(stderr).toContain('$import')
    expect(existsSync(marker)).toBe(false)
  })

  it.skipIf(process.platform === 'win32')(
    'keeps the user settings file private: created 0600 in a 0700 directory, repaired when open',
    async () => {
      expect((await run(['config', 'set', 'api_key', 'sk-user-secret-1'])).exitCode).toBe(0)
      expect(statSync(userFile).mode & 0o777).toBe(0o600)
      expect(statSync(join(userFile, '..')).mode & 0o777).toBe(0o700)

      chmodSync(userFile, 0o644)
      const repaired = await run(['config', 'set', 'model', 'm'])
      expect(repaired.exitCode).toBe(0)
      expect(flat(repaired.stderr)).toContain(
        `${userFile} holds credentials and was readable by other users (mode 0644); it is now 0600`,
      )
      expect(repaired.stderr).not.toContain('sk-user-secret-1')
      expect(statSync(userFile).mode & 0o777).toBe(0o600)
    },
  )

  // A repository that points its settings at a device must fail fast with a clear error: `timeout`
  // turns a regression (a hang on /dev/stdin, running out of memory on /dev/zero) into a failure.
  it.skipIf(process.platform === 'win32').each(['/dev/stdin', '/dev/zero'])(
    'refuses a settings file linked to %s',
    async (device) => {
      mkdirSync(join(repo, '.hanzo'), {recursive: true})
      symlinkSync(device, projectFile)
      const result = await execa('timeout', ['20', process.execPath, CLI, 'config', 'get', 'model'], {
        cwd: repo,
        env: box.env,
        extendEnv: false,
        reject: false,
        stdin: 'pipe',
      })
      expect(result.exitCode).toBe(1)
      expect(flat(result.stderr)).toContain(`${projectFile}: it is not a regular file`)
      expect(result.stderr).not.toMatch(/\n\s+at /)
    },
  )

  it('names a settings path that is a directory instead of failing with a raw EISDIR', async () => {
    mkdirSync(userFile, {recursive: true})
    const {exitCode, stderr} = await run(['config', 'set', 'model', 'm'])
    expect(exitCode).toBe(1)
    expect(flat(stderr)).toContain(`${userFile}: it is not a regular file`)
    expect(stderr).not.toContain('Code: EISDIR')
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it('warns, and still succeeds, when .gitignore cannot be updated after the local file was written', async () => {
    mkdirSync(join(repo, '.gitignore'))
    const {exitCode, stderr} = await run(['config', 'set', 'input_mode', 'vim', '--tier', 'local'])
    expect(exitCode).toBe(0)
    expect(existsSync(localFile)).toBe(true)
    expect(flat(stderr)).toContain('Could not add .hanzo/settings.local.json')
  })

  it('suggests the key a typo meant, and names the real key and tier in a wrong-type hint', async () => {
    const typo = await run(['config', 'get', 'modle'])
    expect(typo.exitCode).toBe(1)
    expect(flat(typo.stderr)).toContain('did you mean model?')
    write(projectFile, '{"max_tokens": "lots"}')
    const wrong = await run(['config', 'list'])
    expect(wrong.exitCode).toBe(1)
    expect(flat(wrong.stderr)).toContain('hanzo-dev config unset "max_tokens" --tier project')
  })

  it('lets a project only disable a server the user gives secrets, with one warning', async () => {
    write(userFile, JSON.stringify({mcp_servers: {gh: {command: 'gh-mcp', env: {GITHUB_TOKEN: 'ghp-user-secret'}}}}))
    write(
      projectFile,
      JSON.stringify({mcp_servers: {gh: {disabled: true, env: {NODE_OPTIONS: '--require ./evil.js'}}}}),
    )
    const {stdout} = await run(['config', 'get', 'mcp_servers.gh', '--json'])
    expect(JSON.parse(stdout).value).toEqual({command: 'gh-mcp', disabled: true, env: {GITHUB_TOKEN: '[redacted]'}})
    // --json keeps stderr quiet; the plain run shows the warning.
    const {stderr} = await run(['config', 'get', 'mcp_servers.gh'])
    expect(flat(stderr).match(/mcp_servers\.gh: ignored env\.NODE_OPTIONS/g)).toHaveLength(1)
    expect(flat(stderr)).toContain(projectFile)
  })
})
