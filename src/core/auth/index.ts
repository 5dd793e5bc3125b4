export * from './credentials.js'
export * from './refresh.js'
export {DEVICE_CODE_GRANT, type DeviceFlowOptions, type DevicePrompt, runDeviceFlow} from './device-flow.js'
export {type AuthServerMetadata, discoverAuthServer, requireS256} from './discovery.js'
export {providerRefresher, revokeCredential, type RevocationResult} from './grant.js'
export {
  type AuthorizationRedirect,
  type AuthorizeIO,
  OAuthFlow,
  type OAuthFlowOptions,
  type RedirectReceiver,
} from './oauth-flow.js'
export {credentialFromToken, type FetchLike, OAuthError, OAuthServerError, type TokenResponse} from './oauth-http.js'
export {
  AUTH_PROVIDERS,
  type AuthProvider,
  AUTO_DETECT_ORDER,
  type LoginFlow,
  providerEndpoints,
  resolveAuthProvider,
} from './providers.js'
