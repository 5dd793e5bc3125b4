import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {makeStyle} from '../adapters/style.js'
import type {LoginChoice} from '../core/auth/providers.js'
import {UserError} from '../core/errors.js'
import {terminalSpinner} from './spinner.js'

/** Whether the user can be asked: both ends of the conversation are a terminal. */
export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY)
}

/**
 * `work`, with an ora spinner on stderr while it runs when stderr is a terminal. ora is imported
 * only then: it costs start-up time nobody sees in a script. The text may name a server's issuer:
 * it goes through the printer.
 */
export async function withSpinner<T>(text: string, work: Promise<T>): Promise<T> {
  if (!process.stderr.isTTY) return work
  // The work runs while the spinner loads: a failure then must not be a rejection no one handles
  // yet (Node ends on it with a stack trace); the await below still throws it.
  work.catch(() => {})
  const spinner = await terminalSpinner(process.stderr, makeStyle(process.stderr), oneLine(text))
  spinner?.start()
  try {
    return await work
  } finally {
    spinner?.stop()
  }
}

/**
 * The provider a command acts on when none was named: asked on a terminal, an error listing the
 * choices in a script (a guess could log in to, or out of, the wrong account).
 */
export async function chooseProvider(choices: string[], what: string): Promise<string> {
  if (choices.length === 1) return choices[0]
  if (choices.length === 0 || !isInteractive()) throw nameTheProvider(choices, what)
  const {select} = await import('@inquirer/prompts')
  return select({choices: choices.map((value) => ({value})), message: `Provider to ${what}`}, {output: process.stderr})
}

/** The way to log in, asked on a terminal (`auth login` without --provider); off one, an error naming the providers. */
export async function chooseLogin(choices: LoginChoice[]): Promise<LoginChoice> {
  if (!isInteractive()) throw nameTheProvider([...new Set(choices.map(({provider}) => provider))], 'log in to')
  const {select} = await import('@inquirer/prompts')
  const label = ({method, provider}: LoginChoice) =>
    method === 'oauth' ? `${provider}: log in (browser or device code)` : `${provider}: paste an API key`
  return select(
    {choices: choices.map((choice) => ({name: label(choice), value: choice})), message: 'How to log in'},
    {output: process.stderr},
  )
}

/** A script must say which provider: a guess could log in to, or out of, the wrong account. */
function nameTheProvider(choices: string[], what: string): UserError {
  return new UserError(`Name the provider to ${what}`, {
    exitCode: 2,
    hint: choices.length > 0 ? `pass --provider with one of: ${choices.join(', ')}` : 'pass --provider',
  })
}

/** An API key from stdin: a hidden prompt on a terminal, the whole input in a script. */
export async function readApiKey(provider: string): Promise<string> {
  let key: string
  if (process.stdin.isTTY) {
    const {password} = await import('@inquirer/prompts')
    key = await password({mask: true, message: `API key for ${provider}`}, {output: process.stderr})
  } else {
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    key = Buffer.concat(chunks).toString('utf8')
  }

  key = key.trim()
  if (key === '' || /\s/.test(key)) {
    throw new UserError(key === '' ? 'No API key on stdin' : 'The API key holds whitespace: pass exactly one key', {
      exitCode: 2,
      hint: `e.g. printenv MY_KEY | hanzo-dev auth login --provider ${provider} --with-api-key`,
    })
  }

  return key
}

/**
 * An AbortSignal that Ctrl-C aborts with "cancelled" (exit 130); a second Ctrl-C exits at once.
 * `release` removes the handler when the command is done.
 */
export function interruptSignal(what: string): {signal: AbortSignal; release(): void} {
  const controller = new AbortController()
  const onInterrupt = () => {
    if (controller.signal.aborted) process.exit(130)
    controller.abort(new UserError(`${what} cancelled`, {exitCode: 130}))
  }

  process.on('SIGINT', onInterrupt)
  return {release: () => process.off('SIGINT', onInterrupt), signal: controller.signal}
}

/** A yes/no question on the terminal; Ctrl-C cancels the command (see userFacingError). */
export async function confirm(message: string): Promise<boolean> {
  const prompts = await import('@inquirer/prompts')
  return prompts.confirm({default: false, message}, {output: process.stderr})
}
