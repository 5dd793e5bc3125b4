import {randomBytes} from 'node:crypto'

import {UserError} from '../errors.js'
import {PkceChallenge} from '../protocol/pkce.js'
import {sameIssuer} from './discovery.js'
import {type ClientAuth, type FetchLike, requestToken, stripControl, type TokenResponse} from './oauth-http.js'

/** What came back from the browser: the redirect's query, or what the user pasted. */
export interface AuthorizationRedirect {
  params: URLSearchParams
  /** A bare pasted code carries no `state` to check; PKCE still binds it to this login. */
  bareCode?: boolean
}

/** Where the redirect arrives: a loopback listener, a paste prompt, or both raced. */
export interface RedirectReceiver {
  readonly redirectUri: string
  wait(signal?: AbortSignal): Promise<AuthorizationRedirect>
}

export interface OAuthFlowOptions extends ClientAuth {
  redirectUri: string
  tokenUrl: string
  fetch: FetchLike
  /** The issuer the `iss` parameter must name when the server sends it (RFC 9207). */
  issuer?: string
  /** The server said it always sends `iss`: a redirect without one is refused. */
  issRequired?: boolean
}

export interface AuthorizeIO {
  receiver: RedirectReceiver
  /** Shows the URL (and opens a browser); the login waits for the redirect meanwhile. */
  onAuthorizationUrl(url: string): void | Promise<void>
  signal?: AbortSignal
  /** Extra authorization request parameters (`prompt`, `audience`, ...). */
  extraParams?: Record<string, string>
}

/**
 * OAuth 2.1 authorization code flow with PKCE (HIP-301 §6): a fresh S256 challenge and `state`
 * per login, the redirect checked (`error`, `state`, `iss`) before the code is exchanged.
 */
export class OAuthFlow {
  constructor(private readonly options: OAuthFlowOptions) {}

  /** The URL to send the user to, with the secrets the redirect must match. */
  authorizationRequest(authUrl: string, scopes: string[], extraParams: Record<string, string> = {}) {
    const pkce = PkceChallenge.generate()
    const state = randomBytes(24).toString('base64url')
    const url = new URL(authUrl)
    const params: Record<string, string> = {
      ...extraParams,
      client_id: this.options.clientId,
      code_challenge: pkce.challenge,
      code_challenge_method: pkce.method,
      redirect_uri: this.options.redirectUri,
      response_type: 'code',
      state,
    }
    if (scopes.length > 0) params.scope = scopes.join(' ')
    if (this.options.resource) params.resource = this.options.resource
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
    return {pkce, state, url: url.href}
  }

  async authorize(authUrl: string, scopes: string[], io: AuthorizeIO): Promise<TokenResponse> {
    const request = this.authorizationRequest(authUrl, scopes, io.extraParams)
    const redirect = io.receiver.wait(io.signal)
    // The receiver listens before the URL is shown: a fast browser must not find the port closed.
    await io.onAuthorizationUrl(request.url)
    const code = this.checkRedirect(await redirect, request.state)
    return this.exchange(code, request.pkce.verifier, io.signal)
  }

  /** The code of a redirect that belongs to this login, or a clear error. */
  checkRedirect(redirect: AuthorizationRedirect, state: string): string {
    const {params} = redirect
    const issuer = this.options.issuer
    if (!redirect.bareCode) {
      if (params.get('state') !== state) {
        throw new UserError('The redirect does not belong to this login (its state does not match): login stopped', {
          hint: 'run hanzo-dev auth login again, and use the newest link it prints',
        })
      }

      const iss = params.get('iss')
      if (issuer && iss !== null && !sameIssuer(iss, issuer)) {
        throw new UserError(
          `The redirect came from another issuer (${stripControl(iss)}) than ${issuer}: login stopped`,
          {
            hint: 'an authorization server mix-up; check the provider settings and log in again',
          },
        )
      }

      if (iss === null && this.options.issRequired) {
        throw new UserError(`The redirect carries no iss although ${issuer} always sends one: login stopped`, {
          hint: 'log in again',
        })
      }
    }

    const error = params.get('error')
    if (error !== null) {
      const description = params.get('error_description')
      const why = description ? `${stripControl(error)}: ${stripControl(description)}` : stripControl(error)
      throw new UserError(
        error === 'access_denied'
          ? `The login was denied (${why})`
          : `The authorization server refused the login (${why})`,
        {
          hint: 'run hanzo-dev auth login again',
        },
      )
    }

    const code = params.get('code')
    if (!code)
      throw new UserError('The redirect carries no authorization code', {
        hint: 'paste the whole URL the browser ended on',
      })
    return code
  }

  exchange(code: string, verifier: string, signal?: AbortSignal): Promise<TokenResponse> {
    const {fetch, redirectUri, tokenUrl} = this.options
    const grant = {code, code_verifier: verifier, grant_type: 'authorization_code', redirect_uri: redirectUri}
    return requestToken(fetch, tokenUrl, this.options, grant, signal)
  }
}
