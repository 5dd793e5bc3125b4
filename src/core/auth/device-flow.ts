import {UserError} from '../errors.js'
import {Backoff} from '../protocol/backoff.js'
import {isHttpUrl} from './discovery.js'
import {
  type ClientAuth,
  type FetchLike,
  OAuthError,
  OAuthServerError,
  originOf,
  parseTokenResponse,
  postForm,
  stripControl,
  type TokenResponse,
} from './oauth-http.js'

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'

/** What the user must see to approve the login on another device. */
export interface DevicePrompt {
  userCode: string
  verificationUri: string
  /** The URI with the code in it, when the server offers one. */
  verificationUriComplete?: string
  expiresInSeconds: number
}

export interface DeviceFlowOptions extends ClientAuth {
  deviceAuthorizationUrl: string
  tokenUrl: string
  scopes: string[]
  fetch: FetchLike
  /** Waits `ms`, rejecting at once when `signal` aborts (Ctrl-C stops polling without delay). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  onPrompt(prompt: DevicePrompt): void | Promise<void>
  onWarning(message: string): void
  /** The issuer, to warn when the verification page is on another host. */
  issuer?: string
  signal?: AbortSignal
  /** Server errors (5xx, answers that are not JSON) tolerated in a row before giving up. */
  maxServerErrors?: number
  backoff?: Backoff
}

const DEFAULT_INTERVAL_S = 5
const SLOW_DOWN_S = 5
const DEFAULT_MAX_SERVER_ERRORS = 5

/**
 * The device authorization grant (RFC 8628): ask for a user code, show it, and poll the token
 * endpoint at the server's interval until the user approves, denies, or the code expires.
 */
export async function runDeviceFlow(options: DeviceFlowOptions): Promise<TokenResponse> {
  const {signal} = options
  const scope: Record<string, string> = options.scopes.length > 0 ? {scope: options.scopes.join(' ')} : {}
  const start = await withServerRetries(options, () =>
    postForm(options.fetch, options.deviceAuthorizationUrl, scope, signal, options),
  )
  const grant = readDeviceAuthorization(start, options.deviceAuthorizationUrl)
  warnOnForeignHost(grant.prompt.verificationUri, options)
  await options.onPrompt(grant.prompt)

  let interval = grant.interval
  const form = {device_code: grant.deviceCode, grant_type: DEVICE_CODE_GRANT}
  for (;;) {
    await options.sleep(interval * 1000, signal)
    try {
      const body = await withServerRetries(options, () =>
        postForm(options.fetch, options.tokenUrl, form, signal, options),
      )
      return parseTokenResponse(body, options.tokenUrl)
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error
      if (error.error === 'authorization_pending') continue
      if (error.error === 'slow_down') {
        interval += SLOW_DOWN_S
        continue
      }

      throw deviceError(error)
    }
  }
}

/**
 * Runs one request, retrying answers that say nothing about the grant (5xx, HTML from a proxy)
 * with jittered backoff; OAuth errors and connection failures pass straight through.
 */
async function withServerRetries<T>(options: DeviceFlowOptions, request: () => Promise<T>): Promise<T> {
  const backoff = options.backoff ?? new Backoff({baseMs: 500, maxMs: 8000})
  const limit = options.maxServerErrors ?? DEFAULT_MAX_SERVER_ERRORS
  for (let failures = 0; ; failures++) {
    try {
      const result = await request()
      backoff.reset()
      return result
    } catch (error) {
      if (!(error instanceof OAuthServerError) || !error.retryable) throw error
      if (failures + 1 >= limit) {
        throw new UserError(`The login failed: ${error.message} ${limit} times in a row`, {
          hint: 'the authorization server may be down; try again later',
        })
      }

      await options.sleep(backoff.nextDelay(), options.signal)
    }
  }
}

function readDeviceAuthorization(body: Record<string, unknown>, url: string) {
  const bad = (field: string) =>
    new UserError(`${originOf(url)} sent a device authorization without a valid ${field}`, {
      hint: 'check the provider settings',
    })
  const text = (field: string) => {
    const value = body[field]
    if (typeof value !== 'string' || stripControl(value) === '') throw bad(field)
    return value
  }

  const deviceCode = text('device_code')
  const userCode = stripControl(text('user_code'))
  const verificationUri = stripControl(
    typeof body.verification_uri === 'string' ? text('verification_uri') : text('verification_url'),
  )
  if (!isHttpUrl(verificationUri)) throw bad('verification_uri (http or https)')
  const complete =
    typeof body.verification_uri_complete === 'string' ? stripControl(body.verification_uri_complete) : undefined
  const expiresInSeconds = positive(body.expires_in) ?? 600
  const prompt: DevicePrompt = {expiresInSeconds, userCode, verificationUri}
  if (complete && isHttpUrl(complete)) prompt.verificationUriComplete = complete
  return {deviceCode, interval: positive(body.interval) ?? DEFAULT_INTERVAL_S, prompt}
}

function warnOnForeignHost(verificationUri: string, options: DeviceFlowOptions): void {
  if (!options.issuer) return
  const shown = new URL(verificationUri).hostname
  const issuerHost = new URL(options.issuer).hostname
  if (shown !== issuerHost) {
    options.onWarning(
      `The verification page is on ${shown}, not on the issuer's host ${issuerHost}: enter the code only if you trust that site`,
    )
  }
}

function deviceError(error: OAuthError): UserError {
  switch (error.error) {
    case 'access_denied': {
      return new UserError('The login was denied on the verification page', {
        hint: 'run hanzo-dev auth login --device again to retry',
      })
    }

    // oidc-provider answers invalid_grant once an expired code has been swept: both are final.
    case 'expired_token':
    case 'invalid_grant': {
      return new UserError('The code expired before the login was approved', {
        hint: 'run hanzo-dev auth login --device again for a new code',
      })
    }

    default: {
      return new UserError(`The authorization server refused the login (${error.message})`, {
        hint: 'check the provider settings (client_id, scopes)',
      })
    }
  }
}

function positive(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value
  return typeof number === 'number' && Number.isFinite(number) && number > 0 ? number : undefined
}
