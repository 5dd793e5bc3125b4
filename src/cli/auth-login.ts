import {setTimeout as delay} from 'node:timers/promises'

import {startLoopbackReceiver} from '../adapters/auth/loopback-receiver.js'
import {openBrowser} from '../adapters/auth/open-browser.js'
import {withPastedRedirect} from '../adapters/auth/paste-receiver.js'
import type {Credential} from '../core/auth/credentials.js'
import {type DevicePrompt, runDeviceFlow} from '../core/auth/device-flow.js'
import type {AuthServerMetadata} from '../core/auth/discovery.js'
import {OAuthFlow} from '../core/auth/oauth-flow.js'
import {
  credentialFromToken,
  OAuthError,
  OAuthServerError,
  type TokenAuthMethod,
  tokenAuthMethod,
  type TokenResponse,
} from '../core/auth/oauth-http.js'
import {type AuthProvider, type LoginFlow, providerEndpoints} from '../core/auth/providers.js'
import {UserError} from '../core/errors.js'
import type {AuthContext} from '../adapters/auth/auth-context.js'

/** How the login talks to the user; everything goes to stderr, so stdout stays for --json. */
export interface LoginIO {
  /** A line for the user (instructions, the URL to open). */
  say(message: string): void
  warn(message: string): void
  /** Shows a spinner (on a terminal) while `work` runs. */
  waiting<T>(text: string, work: Promise<T>): Promise<T>
  /** Where a pasted redirect URL or code is read from (`--no-browser`). */
  input: NodeJS.ReadableStream
  signal: AbortSignal
}

export interface OAuthLoginOptions {
  device: boolean
  browser: boolean
}

const LOGIN_TIMEOUT_MS = 10 * 60_000

/** Runs the provider's login flow and stores the credential; returns what was stored. */
export async function loginWithOAuth(
  context: AuthContext,
  provider: AuthProvider,
  options: OAuthLoginOptions,
  io: LoginIO,
): Promise<Credential> {
  const flow: LoginFlow = options.device ? 'device' : provider.flow
  const endpoints = await io.waiting(
    `Reading ${provider.issuer ?? provider.name}'s OAuth metadata`,
    providerEndpoints(provider, flow, context.fetch, io.signal),
  )
  const token = await (
    flow === 'device'
      ? deviceLogin(context, provider, endpoints, io)
      : browserLogin(context, provider, endpoints, options, io)
  ).catch((error: unknown) => {
    // Ctrl-C: the waits end with their own AbortError; the user is told what the signal says (Login cancelled).
    throw io.signal.aborted ? io.signal.reason : explained(error)
  })
  const issued = credentialFromToken(token, context.now(), {
    clientId: provider.clientId,
    issuer: endpoints.issuer || undefined,
    resource: provider.resource,
  })
  const {clientSecret, registeredAuthMethod} = provider
  const credential =
    registeredAuthMethod === undefined
      ? issued
      : {...issued, tokenAuthMethod: registeredAuthMethod, ...(clientSecret ? {clientSecret} : {})}
  await context.store.store(provider.name, credential)
  return credential
}

function authMethodAt(provider: AuthProvider, endpoints: AuthServerMetadata): TokenAuthMethod {
  return tokenAuthMethod(
    provider.clientSecret,
    endpoints.token_endpoint_auth_methods_supported,
    provider.registeredAuthMethod,
  )
}

async function browserLogin(
  context: AuthContext,
  provider: AuthProvider,
  endpoints: AuthServerMetadata,
  options: OAuthLoginOptions,
  io: LoginIO,
): Promise<TokenResponse> {
  const loopback = await startLoopbackReceiver(provider.redirectUri)
  const receiver = options.browser ? loopback : withPastedRedirect(loopback, io.input)
  const signal = AbortSignal.any([io.signal, AbortSignal.timeout(LOGIN_TIMEOUT_MS)])
  try {
    const flow = new OAuthFlow({
      authMethod: authMethodAt(provider, endpoints),
      clientId: provider.clientId!,
      clientSecret: provider.clientSecret,
      fetch: context.fetch,
      issRequired: endpoints.authorization_response_iss_parameter_supported,
      issuer: endpoints.issuer || undefined,
      redirectUri: receiver.redirectUri,
      resource: provider.resource,
      tokenUrl: endpoints.token_endpoint,
    })
    // OpenID Connect drops offline_access (so no refresh token) unless consent is asked for.
    const extraParams: Record<string, string> = provider.scopes.includes('offline_access') ? {prompt: 'consent'} : {}
    return await flow.authorize(endpoints.authorization_endpoint!, provider.scopes, {
      extraParams,
      async onAuthorizationUrl(url) {
        const opened = options.browser && (await openBrowser(url))
        io.say(
          opened
            ? `Opened your browser. If it did not open, visit:\n\n  ${url}\n`
            : `Open this URL in a browser to log in:\n\n  ${url}\n`,
        )
        if (!options.browser)
          io.say('Then paste the URL the browser ends on (or the code it shows) here and press Enter.')
        void io
          .waiting('Waiting for the login in the browser (Ctrl-C to cancel)', receiver.wait(signal))
          .catch(() => {})
      },
      receiver,
      signal,
    })
  } catch (error) {
    throw signal.aborted && !io.signal.aborted ? timedOut() : error
  } finally {
    if ('close' in receiver && receiver !== loopback) receiver.close()
    await loopback.close()
  }
}

async function deviceLogin(
  context: AuthContext,
  provider: AuthProvider,
  endpoints: AuthServerMetadata,
  io: LoginIO,
): Promise<TokenResponse> {
  const login = runDeviceFlow({
    authMethod: authMethodAt(provider, endpoints),
    clientId: provider.clientId!,
    clientSecret: provider.clientSecret,
    deviceAuthorizationUrl: endpoints.device_authorization_endpoint!,
    fetch: context.fetch,
    issuer: endpoints.issuer || undefined,
    onPrompt(prompt: DevicePrompt) {
      io.say(`To log in, open ${prompt.verificationUri} on any device and enter the code:\n\n  ${prompt.userCode}\n`)
      if (prompt.verificationUriComplete) io.say(`(or open ${prompt.verificationUriComplete})`)
      io.say(`The code expires in ${Math.round(prompt.expiresInSeconds / 60)} minutes.`)
      void io.waiting('Waiting for approval (Ctrl-C to cancel)', login).catch(() => {})
    },
    onWarning: io.warn,
    resource: provider.resource,
    scopes: provider.scopes,
    signal: io.signal,
    sleep: (ms, signal) => delay(ms, undefined, {signal}),
    tokenUrl: endpoints.token_endpoint,
  })
  return login
}

/** A refusal at the token endpoint in the server's words (secrets already cut out), as a user error. */
function explained(error: unknown): unknown {
  if (error instanceof OAuthError)
    return new UserError(`The authorization server refused the login (${error.message})`, {
      hint: 'run hanzo-dev auth login again',
    })
  if (error instanceof OAuthServerError)
    return new UserError(`The login failed: ${error.message}`, {
      hint: 'the authorization server may be down; try again later',
    })
  return error
}

function timedOut(): UserError {
  return new UserError(`No login arrived within ${LOGIN_TIMEOUT_MS / 60_000} minutes`, {
    hint: 'run hanzo-dev auth login again',
  })
}
