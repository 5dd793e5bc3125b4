import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'

import type {AuthorizationRedirect, RedirectReceiver} from '../../core/auth/oauth-flow.js'
import {UserError} from '../../core/errors.js'

export interface LoopbackReceiver extends RedirectReceiver {
  close(): Promise<void>
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]'])
const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><body style="font-family:sans-serif;margin:4em"><h1>${title}</h1><p>${text}</p>`

/**
 * Listens for the authorization redirect on the loopback interface (RFC 8252 §7.3): 127.0.0.1 at
 * a port the OS picks, unless the provider registered a fixed redirect URI. Only the redirect's
 * path answers; the first request there ends the wait, and the flow checks it.
 */
export async function startLoopbackReceiver(configuredUri?: string): Promise<LoopbackReceiver> {
  const {host, path, port, uriHost} = parseRedirectUri(configuredUri)
  let deliver: (redirect: AuthorizationRedirect) => void = () => {}
  const arrived = new Promise<AuthorizationRedirect>((resolve) => {
    deliver = resolve
  })
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (req.method !== 'GET' || url.pathname !== path) {
      res.writeHead(404, {'content-type': 'text/plain'}).end('Not found')
      return
    }

    const failed = url.searchParams.has('error')
    res.writeHead(200, {'cache-control': 'no-store', 'content-type': 'text/html; charset=utf-8'})
    res.end(
      failed
        ? PAGE('Login not completed', 'Return to the terminal to see why.')
        : PAGE('Login received', 'You can close this tab and return to the terminal.'),
    )
    deliver({params: url.searchParams})
  })
  await listen(server, host, port, configuredUri)
  const bound = (server.address() as AddressInfo).port
  return {
    close: () => closeServer(server),
    redirectUri: `http://${uriHost}:${bound}${path}`,
    wait: (signal) => untilAborted(arrived, signal),
  }
}

function parseRedirectUri(configured: string | undefined) {
  if (configured === undefined) return {host: '127.0.0.1', path: '/callback', port: 0, uriHost: '127.0.0.1'}
  let url: URL
  try {
    url = new URL(configured)
  } catch {
    throw new UserError(`The redirect URI "${configured}" is not a URL`, {hint: 'use e.g. http://127.0.0.1/callback'})
  }

  if (url.protocol !== 'http:' || !LOOPBACK_HOSTS.has(url.hostname)) {
    throw new UserError(`The redirect URI ${configured} is not a loopback http URL`, {
      hint: 'hanzo-dev receives the login on http://127.0.0.1 (or localhost) only',
    })
  }

  const host = url.hostname === '[::1]' ? '::1' : '127.0.0.1'
  return {host, path: url.pathname || '/', port: url.port === '' ? 0 : Number(url.port), uriHost: url.hostname}
}

async function listen(server: Server, host: string, port: number, configured: string | undefined): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new UserError(`Port ${port} is in use, and the provider's redirect URI (${configured}) needs it`, {
              hint: 'close the program holding it (another login?), or log in with --device',
            })
          : error,
      )
    })
    server.listen(port, host, resolve)
  })
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections()
  return new Promise((resolve) => server.close(() => resolve()))
}

/** `promise`, or the abort's reason as soon as `signal` aborts. */
export function untilAborted<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    if (signal.aborted) return onAbort()
    signal.addEventListener('abort', onAbort, {once: true})
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
  })
}
