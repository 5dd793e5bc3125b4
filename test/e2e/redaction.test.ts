import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, runCli, type Sandbox} from '../helpers/cli.js'

// What every command that shows settings prints: no secret, wherever it hides (a value whose
// name does not look secret, an argument after an innocent flag, a URL path, a command line),
// and nothing else altered.

let box: Sandbox
let project: string

beforeEach(() => {
  box = makeSandbox('hanzo-redaction-')
  project = join(box.home, 'project')
  mkdirSync(join(project, '.git'), {recursive: true})
})
afterEach(() => box.cleanup())

const run = (args: string[]) => runCli(args, {cwd: project, env: box.env})

function writeUserSettings(settings: unknown): void {
  const dir = join(box.env.XDG_CONFIG_HOME, 'hanzo')
  mkdirSync(dir, {recursive: true})
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2))
}

const SECRETS = [
  'SECRET-BEARER',
  'SECRET-PW',
  'SECRET-FLAG',
  'SECRET-CREDS',
  'SECRET-PASS',
  'SECRET-HOOK-URL',
  'SECRET-WEBHOOK',
  'SECRET-CMD',
  'SECRET-HOOK',
  'ghp_SECRETPATH',
  'SECRET-QUERY',
]
const INSTRUCTIONS = 'Read https://example.com/docs#setup then follow them'

describe('settings shown by any command', () => {
  beforeEach(() => {
    writeUserSettings({
      custom_instructions: INSTRUCTIONS,
      hooks: [{command: 'API_TOKEN=SECRET-HOOK curl -s https://hooks.example/SECRET-HOOK-URL', event: 'stop'}],
      mcp_servers: {
        bearer: {args: ['--bearer', 'SECRET-BEARER'], command: 'srv'},
        header: {args: ['--header', 'Authorization: Bearer SECRET-BEARER', '-p', 'SECRET-PW'], command: 'npx'},
        pasted: {command: 'srv --token SECRET-CMD'},
        plain: {
          command: 'node',
          env: {
            CREDS: 'SECRET-CREDS',
            PASS: 'SECRET-PASS',
            SLACK_WEBHOOK: 'https://hooks.slack.com/services/T0/B0/SECRET-WEBHOOK',
          },
        },
        web: {url: 'https://mcp.example.com/sse/ghp_SECRETPATH?x=SECRET-QUERY'},
      },
    })
  })

  it.each([
    [['config', 'list']],
    [['config', 'list', '--show-origin']],
    [['config', 'list', '--json']],
    [['config', 'get', 'mcp_servers', '--json']],
    [['config', 'get', 'hooks']],
    [['doctor', '--json']],
    [['mcp', 'list', '--offline']],
    [['mcp', 'list', '--offline', '--json']],
    [['hooks', 'list', '--json']],
  ])('%j never prints one', async (args) => {
    const {stderr, stdout} = await run(args)
    for (const secret of SECRETS) {
      expect(stdout).not.toContain(secret)
      expect(stderr).not.toContain(secret)
    }
  })

  it('keeps programs, flags and hosts, and leaves text that only contains a URL alone', async () => {
    const {stdout} = await run(['config', 'list'])
    const lines = stdout.split('\n')
    expect(lines).toEqual(
      expect.arrayContaining([
        `custom_instructions=${INSTRUCTIONS}`,
        'hooks.0.command=API_TOKEN=[redacted] curl [redacted]',
        'mcp_servers.header.args=["--header","[redacted]","-p","[redacted]"]',
        'mcp_servers.pasted.command=srv [redacted]',
        'mcp_servers.plain.env.SLACK_WEBHOOK=[redacted]',
        'mcp_servers.web.url=https://mcp.example.com/sse/[redacted]?x=[redacted]',
      ]),
    )
    // The merge's tier tags are not settings: no file sets them.
    expect(stdout).not.toMatch(/\.tier=/)
    expect(JSON.stringify(JSON.parse((await run(['config', 'get', 'mcp_servers', '--json'])).stdout))).not.toContain(
      '"tier"',
    )
    expect(JSON.stringify(JSON.parse((await run(['config', 'list', '--json'])).stdout).config)).not.toContain('"tier"')

    const mcp = JSON.parse((await run(['mcp', 'list', '--offline', '--json'])).stdout) as {
      servers: Array<{name: string; url?: string}>
    }
    // The path is shown (issue 42): only its key-like segment goes.
    expect(mcp.servers.find((s) => s.name === 'web')?.url).toBe('https://mcp.example.com/sse/[redacted]?x=[redacted]')
  })
})
