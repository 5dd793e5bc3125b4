// oidc-provider 9 ships no type declarations and no @types package is installed; this declares
// only the slice the test harness uses, so a wrong call still fails the type check.
declare module 'oidc-provider' {
  import type {IncomingMessage, ServerResponse} from 'node:http'

  type Handler = (req: IncomingMessage, res: ServerResponse) => void

  export interface InteractionResult {
    login?: {accountId: string}
    consent?: {grantId: string}
    error?: string
    error_description?: string
  }

  export interface InteractionDetails {
    uid: string
    grantId?: string
    params: Record<string, unknown> & {client_id: string}
    prompt: {
      name: string
      details: Record<string, unknown> & {
        missingOIDCScope?: string[]
        missingOIDCClaims?: string[]
        missingResourceScopes?: Record<string, string[]>
      }
    }
    session?: {accountId: string}
  }

  export interface Grant {
    addOIDCScope(scope: string): void
    addOIDCClaims(claims: string[]): void
    addResourceScope(resource: string, scope: string): void
    save(): Promise<string>
  }

  export interface GrantModel {
    new (properties: {accountId: string; clientId: string}): Grant
    find(id: string): Promise<Grant | undefined>
  }

  export interface AccessToken {
    aud?: string | string[]
    scope?: string
    isExpired: boolean
  }

  export const errors: {InvalidTarget: new (description?: string) => Error}

  /** The slice of oidc-provider's Koa context its middleware reads. */
  export interface MiddlewareContext {
    body: unknown
    oidc?: {route?: string}
  }

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>)
    use(middleware: (ctx: MiddlewareContext, next: () => Promise<void>) => Promise<void>): void
    readonly Grant: GrantModel
    readonly AccessToken: {find(token: string): Promise<AccessToken | undefined>}
    callback(): Handler
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResult,
      options?: {mergeWithLastSubmission?: boolean},
    ): Promise<void>
  }
}
