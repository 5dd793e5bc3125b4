import {chmodSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'

import {type CliResult, type Sandbox, spawnCli} from '../../helpers/cli.js'
import {waitUntil} from '../../helpers/processes.js'

/** A running `hanzo-dev auth login` whose stderr a test reads as the user would. */
export interface LoginSession {
  /** The first match of `pattern` in stderr, waited for. */
  read(pattern: RegExp): Promise<RegExpMatchArray>
  /** Types a line on its stdin (the paste of `--no-browser`). */
  paste(line: string): void
  interrupt(): void
  result: Promise<CliResult>
}

/** `command`: the login command (`mcp login` logs in to an MCP server the same way). */
export function startLogin(
  args: string[],
  box: Sandbox,
  env: Record<string, string> = {},
  command = ['auth', 'login'],
): LoginSession {
  const child = spawnCli([...command, ...args], {env: {...box.env, ...env}, openStdin: true})
  let stderr = ''
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8')
  })
  const result = (async () => {
    const end = await child
    return {exitCode: end.exitCode ?? 1, stderr: end.stderr as string, stdout: end.stdout as string}
  })()
  return {
    interrupt: () => child.kill('SIGINT'),
    paste: (line) => child.stdin!.write(`${line}\n`),
    async read(pattern) {
      let match: RegExpMatchArray | null = null
      await Promise.race([
        waitUntil(() => (match = pattern.exec(stderr)) !== null, `stderr shows ${pattern}; it holds: ${stderr}`),
        result.then((end) => {
          if (!pattern.exec(stderr))
            throw new Error(`login ended (exit ${end.exitCode}) before ${pattern}: ${end.stderr}`)
        }),
      ])
      return (match ?? pattern.exec(stderr))!
    },
    result,
  }
}

export function writeUserSettings(box: Sandbox, settings: Record<string, unknown>): string {
  const file = join(box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json')
  mkdirSync(dirname(file), {mode: 0o700, recursive: true})
  writeFileSync(file, JSON.stringify(settings, null, 2), {mode: 0o600})
  chmodSync(file, 0o600)
  return file
}

export function credentialsFile(box: Sandbox): string {
  return join(box.env.XDG_CONFIG_HOME, 'hanzo', 'credentials.json')
}

/** The stored credentials, read the way a test may: the file is the one place a token may be. */
export function storedCredentials(box: Sandbox): Record<string, Record<string, unknown>> {
  return JSON.parse(readFileSync(credentialsFile(box), 'utf8')).providers
}

export const AUTHORIZE_URL = /\n {2}(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)\n/

/** A whole `--no-browser` PKCE login as `account`, the test playing the browser; resolves when stored. */
export async function pasteLogin(box: Sandbox, provider: string, account: string): Promise<void> {
  const {HeadlessBrowser} = await import('../oidc/browser.js')
  const login = startLogin(['--provider', provider, '--no-browser'], box)
  login.paste((await new HeadlessBrowser().approveAuthorization((await login.read(AUTHORIZE_URL))[1], {account})).href)
  const end = await login.result
  if (end.exitCode !== 0) throw new Error(`login failed (exit ${end.exitCode}): ${end.stderr}`)
}
