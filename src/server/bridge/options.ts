import {UserError} from '../../core/errors.js'
import {loopbackPort, readSecretLine} from '../loopback-guard.js'
import type {JwtKeys} from './jwt.js'

const LOOPBACK = new Set(['127.0.0.1', 'localhost'])
/** HS256 wants a key at least as long as its hash (RFC 7518 §3.2). */
const MIN_SECRET_BYTES = 32

/** `--listen 127.0.0.1:PORT` (or just PORT): the bridge listens on the loopback interface only. */
export function parseListen(value: string): {host: string; port: number} {
  return {host: '127.0.0.1', port: loopbackPort(value, 'the bridge')}
}

/** `--app URL`: the app server's http://127.0.0.1:PORT (it never listens elsewhere, and its token must not travel). */
export function parseAppUrl(value: string): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new UserError(`--app ${value} is not a URL`, {
      exitCode: 2,
      hint: 'give the url the app server printed, e.g. --app http://127.0.0.1:8765',
    })
  }

  if (url.protocol !== 'http:' || !LOOPBACK.has(url.hostname)) {
    throw new UserError(`--app ${value} is not an http URL on 127.0.0.1`, {
      exitCode: 2,
      hint: 'start `hanzo-dev app-server --listen 127.0.0.1:0` and pass the url it prints',
    })
  }

  return new URL(url.origin)
}

/** `--jwks URL` (https, or http on loopback for local IAMs and tests) or `--jwt-secret-file F`. */
export async function resolveJwtKeys(flags: {jwks?: string; 'jwt-secret-file'?: string}): Promise<JwtKeys> {
  if (flags.jwks !== undefined) {
    let url: URL
    try {
      url = new URL(flags.jwks)
    } catch {
      throw new UserError(`--jwks ${flags.jwks} is not a URL`, {
        exitCode: 2,
        hint: "give your IAM's JWKS URL, e.g. https://iam.hanzo.ai/.well-known/jwks",
      })
    }

    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
      throw new UserError(`--jwks ${flags.jwks} is not https`, {
        exitCode: 2,
        hint: 'keys fetched over plain http could be swapped on the way; only 127.0.0.1 may use http',
      })
    }

    return {jwks: url}
  }

  const file = flags['jwt-secret-file']
  if (file === undefined) {
    throw new UserError('The bridge needs a way to verify JWTs', {
      exitCode: 2,
      hint: "pass --jwks URL (your IAM's key set) or --jwt-secret-file FILE (an HS256 secret on its first line)",
    })
  }

  const secret = await readSecretLine(file, '--jwt-secret-file')
  if (Buffer.byteLength(secret) < MIN_SECRET_BYTES)
    throw new UserError(`The secret in --jwt-secret-file ${file} is shorter than ${MIN_SECRET_BYTES} bytes`, {
      exitCode: 2,
      hint: 'make one with: openssl rand -base64 48',
    })
  return {secret: new TextEncoder().encode(secret)}
}

/** The app server's token: `--app-token-file F` (first line), else HANZO_APP_SERVER_TOKEN. */
export async function resolveAppToken(file: string | undefined, env: NodeJS.ProcessEnv): Promise<string> {
  if (file !== undefined) return readSecretLine(file, '--app-token-file')
  const token = env.HANZO_APP_SERVER_TOKEN?.trim()
  if (token) return token
  throw new UserError("The bridge needs the app server's token", {
    exitCode: 2,
    hint: 'pass --app-token-file FILE or set HANZO_APP_SERVER_TOKEN to the token `hanzo-dev app-server --listen` printed (or was given)',
  })
}
