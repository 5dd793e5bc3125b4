import {generateKeyPair, randomBytes} from 'node:crypto'
import {createServer} from 'node:http'
import type {AddressInfo} from 'node:net'
import {promisify} from 'node:util'
import Provider, {errors} from 'oidc-provider'

import {handleInteraction, INTERACTION_PATH} from './interactions.js'

export interface OidcServerOptions {
  /** Seconds an access token lives (default 3600); make it short to test expiry and refresh. */
  accessTokenTtl?: number
  /** Seconds a device code lives (default 600); make it short to test `expired_token`. */
  deviceCodeTtl?: number
  /**
   * The `interval` of a device authorization, in seconds. oidc-provider sends none, so clients
   * poll every 5 s (RFC 8628): a test that logs in through the device flow sets 1.
   */
  devicePollInterval?: number
  clientId?: string
  /**
   * Resource servers (RFC 8707), by URL, with the scope each accepts: a token asked for one of
   * them is opaque, has it as its audience, and carries only its scopes (MCP authorization).
   */
  resourceServers?: Record<string, string>
  /** Open dynamic client registration (RFC 7591) at /reg. */
  registration?: boolean
  /**
   * A confidential native client besides the public one, that authenticates at the token
   * endpoint with HTTP Basic only (`client_secret_basic`); a secret in the body is refused.
   */
  basicClient?: {clientId: string; clientSecret: string}
}

export interface OidcServer {
  /** `http://127.0.0.1:<port>`, exactly as discovery and the `iss` parameter report it. */
  issuer: string
  clientId: string
  /** The registered redirect URI; any port on it is accepted (RFC 8252 §7.3). */
  redirectUri: string
  /** Scopes the server knows; ask for `offline_access` (with `prompt=consent`) to get a refresh token. */
  scopes: string[]
  provider: Provider
  close(): Promise<void>
}

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code'
const SCOPES = ['openid', 'offline_access', 'profile', 'email']

/**
 * A real OAuth 2.0 / OpenID Connect authorization server (oidc-provider 9) on 127.0.0.1 at a random
 * port, with one public native client, for tests that log in for real. Storage is oidc-provider's
 * in-memory adapter, one store per server, so servers in the same process share nothing.
 *
 * What this configuration relies on in oidc-provider 9 (checked against its source):
 * - `code_challenge_methods_supported` is always `["S256"]`; `plain` no longer exists, so there
 *   is no methods option. `pkce.required` is forced on for every client here.
 * - `iss` is always added to authorization responses (RFC 9207) and discovery says
 *   `authorization_response_iss_parameter_supported: true`; 9.x has no `issAuthResp` feature flag.
 * - For `application_type: 'native'`, an `http` redirect URI on localhost, 127.0.0.1 or [::1]
 *   matches a registered one regardless of port; host, path and query must still match exactly.
 * - `rotateRefreshToken: true` consumes each refresh token on use; presenting a consumed one
 *   answers `invalid_grant` and revokes the whole grant, so the newest refresh token dies too.
 * - The default `issueRefreshToken` issues one only for the `offline_access` scope, and an
 *   authorization request keeps `offline_access` only when it also says `prompt=consent`. Device
 *   authorization requests keep it without.
 */
export async function startOidcServer(options: OidcServerOptions = {}): Promise<OidcServer> {
  const clientId = options.clientId ?? 'hanzo-dev-cli'
  const redirectUri = 'http://127.0.0.1/callback'

  // The issuer must name the port, which is unknown until the socket is bound, so the provider
  // is created after listen() and the request handler attached once it exists.
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  // Our own signing key keeps oidc-provider from warning about its built-in development keys.
  const {privateKey} = await promisify(generateKeyPair)('rsa', {modulusLength: 2048})

  const provider = new Provider(issuer, {
    clients: [
      {
        application_type: 'native',
        client_id: clientId,
        grant_types: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT],
        redirect_uris: [redirectUri],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      ...(options.basicClient
        ? [
            {
              application_type: 'native',
              client_id: options.basicClient.clientId,
              client_secret: options.basicClient.clientSecret,
              grant_types: ['authorization_code', 'refresh_token'],
              redirect_uris: [redirectUri],
              response_types: ['code'],
              token_endpoint_auth_method: 'client_secret_basic',
            },
          ]
        : []),
    ],
    // What discovery lists: the public client's method and Basic, not client_secret_post.
    ...(options.basicClient ? {clientAuthMethods: ['none', 'client_secret_basic']} : {}),
    // Any account id signs in; the claims are just enough for an ID token and a display name.
    async findAccount(_ctx: unknown, sub: string) {
      return {accountId: sub, claims: async () => ({email: `${sub}@example.test`, name: sub, sub})}
    },
    claims: {email: ['email'], openid: ['sub'], profile: ['name']},
    cookies: {keys: [randomBytes(32).toString('base64url')]},
    features: {
      devInteractions: {enabled: false},
      registration: {enabled: options.registration ?? false},
      resourceIndicators: {
        enabled: options.resourceServers !== undefined,
        // A request without `resource` gets a token for the userinfo endpoint, as without the feature.
        defaultResource: () => undefined,
        async getResourceServerInfo(_ctx: unknown, indicator: string) {
          const scope = options.resourceServers?.[indicator]
          if (scope === undefined) throw new errors.InvalidTarget()
          return {accessTokenFormat: 'opaque', audience: indicator, scope}
        },
        useGrantedResource: () => true,
      },
      deviceFlow: {enabled: true},
      revocation: {
        enabled: true,
        allowedPolicy: async (_ctx: unknown, client: {clientId: string}, token: {clientId: string}) =>
          token.clientId === client.clientId,
      },
    },
    jwks: {keys: [{...privateKey.export({format: 'jwk'}), alg: 'RS256', use: 'sig'}]},
    interactions: {url: (_ctx: unknown, interaction: {uid: string}) => `/interaction/${interaction.uid}`},
    pkce: {required: () => true},
    rotateRefreshToken: true,
    scopes: SCOPES,
    // Every artifact gets a fixed lifetime: oidc-provider's defaults are functions that log a
    // notice on each call, and fixed values make the tests' clocks predictable.
    ttl: {
      AccessToken: options.accessTokenTtl ?? 3600,
      AuthorizationCode: 60,
      DeviceCode: options.deviceCodeTtl ?? 600,
      Grant: 14 * 24 * 3600,
      IdToken: 3600,
      Interaction: 3600,
      RefreshToken: 14 * 24 * 3600,
      Session: 14 * 24 * 3600,
    },
  })
  const interval = options.devicePollInterval
  if (interval !== undefined) {
    provider.use(async (ctx, next) => {
      await next()
      if (ctx.oidc?.route === 'device_authorization' && typeof ctx.body === 'object' && ctx.body !== null)
        Object.assign(ctx.body, {interval})
    })
  }

  const callback = provider.callback()
  server.on('request', (req, res) => {
    const match = INTERACTION_PATH.exec(new URL(req.url ?? '/', issuer).pathname)
    if (!match) return callback(req, res)
    handleInteraction(provider, req, res, match[2]).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, {'content-type': 'application/json'})
      res.end(JSON.stringify({error: 'server_error', error_description: String(error)}))
    })
  })

  return {
    clientId,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
    },
    issuer,
    provider,
    redirectUri,
    scopes: SCOPES,
  }
}
