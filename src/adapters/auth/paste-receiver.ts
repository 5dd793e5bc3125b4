import {createInterface} from 'node:readline'

import type {AuthorizationRedirect, RedirectReceiver} from '../../core/auth/oauth-flow.js'
import {untilAborted} from './loopback-receiver.js'

/**
 * For a login whose browser is elsewhere (SSH, a container): the user pastes the URL the browser
 * ended on (its page fails to load, but the address bar has the code) or just the code. The
 * loopback listener keeps running alongside, so whichever answers first wins.
 */
export function withPastedRedirect(
  loopback: RedirectReceiver,
  input: NodeJS.ReadableStream,
): RedirectReceiver & {close(): void} {
  const lines = createInterface({input, terminal: false})
  // The input may end without a paste (stdin is /dev/null): the loopback can still answer.
  const pasted = new Promise<AuthorizationRedirect>((resolve) => {
    lines.on('line', (line) => {
      const redirect = parsePasted(line)
      if (redirect) resolve(redirect)
    })
  })
  return {
    close: () => lines.close(),
    redirectUri: loopback.redirectUri,
    wait: (signal) => untilAborted(Promise.race([loopback.wait(signal), pasted]), signal),
  }
}

/** A pasted redirect URL as its query; any other non-blank text as a bare code. */
export function parsePasted(line: string): AuthorizationRedirect | undefined {
  const text = line.trim()
  if (text === '') return undefined
  if (/^https?:\/\//i.test(text)) {
    try {
      return {params: new URL(text).searchParams}
    } catch {
      // Not a URL after all: a code that starts oddly.
    }
  }

  return {bareCode: true, params: new URLSearchParams({code: text})}
}
