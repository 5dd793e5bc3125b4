import type {IncomingMessage, ServerResponse} from 'node:http'
import type Provider from 'oidc-provider'

/**
 * The login and consent "pages" of the test authorization server. oidc-provider's devInteractions
 * render HTML meant for people and warn that they are not for use; these answer in JSON instead, so
 * the headless browser (browser.ts) reads which prompt is pending and answers it with a form post,
 * without scraping markup that may change between oidc-provider releases.
 *
 *   GET  /interaction/:uid          -> {uid, prompt: 'login' | 'consent', clientId, scope}
 *   POST /interaction/:uid/login    account=<id>   (any account id signs in; there are no passwords)
 *   POST /interaction/:uid/consent  grants everything the client asked for
 *   POST /interaction/:uid/abort    ends the request with access_denied
 *
 * The POSTs answer 303 back into oidc-provider, which continues the flow (and, for the device
 * flow, marks the device code approved or denied).
 */
export const INTERACTION_PATH = /^\/interaction\/([^/]+)(?:\/(login|consent|abort))?$/

export async function handleInteraction(
  provider: Provider,
  req: IncomingMessage,
  res: ServerResponse,
  action: string | undefined,
) {
  if (action === undefined) {
    if (req.method !== 'GET') return reply(res, 405, {error: 'method_not_allowed'})
    const {params, prompt, uid} = await provider.interactionDetails(req, res)
    return reply(res, 200, {clientId: params.client_id, prompt: prompt.name, scope: params.scope, uid})
  }
  if (req.method !== 'POST') return reply(res, 405, {error: 'method_not_allowed'})
  const form = new URLSearchParams(await readBody(req))

  if (action === 'abort') {
    return provider.interactionFinished(
      req,
      res,
      {error: 'access_denied', error_description: 'End-User denied the request'},
      {mergeWithLastSubmission: false},
    )
  }
  const details = await provider.interactionDetails(req, res)
  if (details.prompt.name !== action) return reply(res, 409, {error: 'wrong_prompt', pending: details.prompt.name})

  if (action === 'login') {
    const accountId = form.get('account')
    if (!accountId) return reply(res, 400, {error: 'account_required'})
    return provider.interactionFinished(req, res, {login: {accountId}}, {mergeWithLastSubmission: false})
  }

  // Consent: grant exactly what oidc-provider reports missing, into the session's existing grant
  // when there is one, so a second login for the same client extends rather than duplicates it.
  const accountId = details.session?.accountId
  if (!accountId) return reply(res, 409, {error: 'no_session'})
  const grant =
    (details.grantId ? await provider.Grant.find(details.grantId) : undefined) ??
    new provider.Grant({accountId, clientId: details.params.client_id})
  const {missingOIDCClaims, missingOIDCScope, missingResourceScopes} = details.prompt.details
  if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(' '))
  if (missingOIDCClaims) grant.addOIDCClaims(missingOIDCClaims)
  for (const [resource, scopes] of Object.entries(missingResourceScopes ?? {}))
    grant.addResourceScope(resource, scopes.join(' '))
  const grantId = await grant.save()
  return provider.interactionFinished(req, res, {consent: {grantId}}, {mergeWithLastSubmission: true})
}

function reply(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, {'cache-control': 'no-store', 'content-type': 'application/json'})
  res.end(JSON.stringify(body))
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
