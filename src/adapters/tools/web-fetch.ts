import {type ToolDefinition, toolError, toolOk} from '@hanzo-dev/sdk'

import type {PermissionEvaluation} from '../../core/permissions/policy.js'
import {parseRulePattern, urlHost} from '../../core/permissions/rule-pattern.js'
import {objectSchema} from './input-schema.js'
import {failureResult, ToolFailure} from './tool-failure.js'
import {isPrivateAddress, resolveHost} from './web-address.js'
import {getOnce, type WebResponse} from './web-request.js'

export type WebFetchInput = {url: string}

export interface WebFetchOptions {
  /**
   * How the permission rules judge a fetch of this URL (the call's subject), ignoring the
   * session mode: a redirect to another host is followed only when a rule allows it, and a
   * private address reached only when an allowing rule names its host. Without it no rule
   * allows anything.
   */
  judge?: (url: string) => PermissionEvaluation
  /** Bytes of a body past which the fetch is refused; {@link WEB_FETCH_MAX_BYTES} by default. */
  maxBytes?: number
}

export const WEB_FETCH_MAX_BYTES = 5 * 1024 * 1024
export const WEB_FETCH_TIMEOUT_MS = 30_000
const MAX_REDIRECTS = 10

export function webFetchTool(options: WebFetchOptions = {}): ToolDefinition<WebFetchInput> {
  const judge = options.judge ?? (() => ({mode: 'prompt', rule: null}) as const)
  const maxBytes = options.maxBytes ?? WEB_FETCH_MAX_BYTES
  return {
    name: 'web_fetch',
    aliases: ['WebFetch'],
    description: [
      'Fetch a web page or text document over http(s) with a GET: HTML comes back as Markdown, other text as it is; images and other binary content are refused.',
      `Responses over ${WEB_FETCH_MAX_BYTES / 1024 / 1024} MB or slower than ${WEB_FETCH_TIMEOUT_MS / 1000} s are refused.`,
      'A redirect to another host is not followed unless the permission rules allow that host: fetch the URL it names yourself.',
    ].join(' '),
    inputSchema: objectSchema({url: {description: 'The http:// or https:// URL to fetch.', type: 'string'}}, ['url']),
    mutating: false,
    kind: 'fetch',
    subject: (input) => ({kind: 'url', url: input.url}),
    describe: (input) => input.url,
    async execute(input, context) {
      const signal = AbortSignal.any([context.signal, AbortSignal.timeout(WEB_FETCH_TIMEOUT_MS)])
      try {
        const first = webUrl(input.url)
        let url = first
        for (let hops = 0; ; hops++) {
          const response = await getOnce({address: await checkedAddress(url, judge), maxBytes, signal, url})
          if (response.kind === 'body') return await render(url, first, response)
          if (hops === MAX_REDIRECTS) throw new ToolFailure(`${first.href} redirects more than ${MAX_REDIRECTS} times`)
          url = checkedRedirect(url, response.location, first, judge)
        }
      } catch (error) {
        if (signal.aborted && !context.signal.aborted)
          return toolError(`${input.url} did not answer within ${WEB_FETCH_TIMEOUT_MS / 1000} s`)
        if (context.signal.aborted) return toolError('cancelled')
        return fetchFailure(error, input.url)
      }
    },
  }
}

function webUrl(text: string, base?: URL): URL {
  let url: URL
  try {
    url = new URL(text, base)
  } catch {
    throw new ToolFailure(`${text} is not a URL`)
  }

  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ToolFailure(`${url.protocol} URLs are not fetched: only http:// and https://`)
  return url
}

/** The next hop, when the rules let it be followed without asking. */
function checkedRedirect(from: URL, location: string, first: URL, judge: WebFetchOptions['judge'] & {}): URL {
  const next = webUrl(location, from)
  const verdict = judge(next.href)
  if (verdict.mode === 'deny') throw new ToolFailure(`${from.href} redirects to ${next.href}: ${verdict.reason}`)
  if (urlHost(next.href) !== urlHost(first.href) && verdict.mode !== 'allow')
    throw new ToolFailure(
      `${from.href} redirects to ${next.href}, on another host no rule allows: call web_fetch with that URL to fetch it`,
    )
  return next
}

/**
 * Where to connect: the host's first address, once every address it resolves to has been
 * checked (a host may answer with several, and the connection could use any).
 */
async function checkedAddress(
  url: URL,
  judge: WebFetchOptions['judge'] & {},
): Promise<{address: string; family: number}> {
  const host = urlHost(url.href)
  const addresses = await resolveHost(host)
  const inside = addresses.find(({address}) => isPrivateAddress(address))
  if (inside && !ruleNamesHost(judge(url.href), host))
    throw new ToolFailure(
      `${host} is a private, loopback or link-local address (${inside.address}): fetched only when a permission rule names the host, such as "web_fetch(domain:${host})"`,
    )
  if (addresses.length === 0) throw new ToolFailure(`${host} has no address`)
  return addresses[0]!
}

/** A configured allow rule that spells the host out: `web_fetch` alone or `web_fetch(*)` does not. */
function ruleNamesHost(verdict: PermissionEvaluation, host: string): boolean {
  const {rule} = verdict
  if (verdict.mode !== 'allow' || !rule || rule.tier === 'default' || rule.tier === 'protected') return false
  return parseRulePattern(rule.pattern)?.argument?.toLowerCase().includes(host) ?? false
}

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml'])
const TEXT_TYPES = /^(?:text\/|application\/(?:[\w.-]+\+)?(?:json|xml|javascript|ecmascript|yaml|toml|x-sh)$)/

async function render(
  url: URL,
  first: URL,
  response: WebResponse & {kind: 'body'},
): Promise<ReturnType<typeof toolOk>> {
  const [type = '', ...parameters] = response.contentType.split(';').map((part) => part.trim())
  const mime = type.toLowerCase()
  const charset = parameters
    .find((p) => /^charset=/i.test(p))
    ?.slice('charset='.length)
    .replaceAll('"', '')
  const {body} = response
  if (!HTML_TYPES.has(mime) && !TEXT_TYPES.test(mime) && (mime !== '' || body.subarray(0, 8192).includes(0)))
    throw new ToolFailure(
      `${url.href} is ${mime || 'binary'} content (${body.length} bytes): web_fetch returns text only`,
    )
  const text = decodeText(body, charset)
  const content = HTML_TYPES.has(mime) ? await toMarkdown(text, url) : text
  const from = url.href === first.href ? '' : ` (redirected from ${first.href})`
  const header = `${url.href}${from}: ${mime || 'text'}, ${body.length} bytes`
  if (response.status >= 400)
    return toolError(`${url.href} answered ${response.status} ${response.statusText}`.trim(), `${header}\n\n${content}`)
  return toolOk(`${header}\n\n${content}`)
}

function decodeText(body: Buffer, charset = 'utf-8'): string {
  try {
    return new TextDecoder(charset).decode(body)
  } catch {
    // A label TextDecoder does not know: most pages that misname their charset are UTF-8.
    return new TextDecoder().decode(body)
  }
}

/**
 * HTML past which a page is cut before conversion: the conversion is linear but blocks the
 * process (about 2 s a megabyte here), and the central output cap keeps far less Markdown anyway.
 */
export const WEB_FETCH_HTML_CHARS = 1024 * 1024

/**
 * Turndown (with GitHub's tables), loaded on the first fetch of a page: most sessions never fetch
 * one. Not node-html-markdown: its time grows with the square of the page (1 MB took minutes).
 */
async function toMarkdown(html: string, url: URL): Promise<string> {
  const [{default: Turndown}, {tables}] = await Promise.all([import('turndown'), import('@joplin/turndown-plugin-gfm')])
  const turndown = new Turndown({bulletListMarker: '*', codeBlockStyle: 'fenced', headingStyle: 'atx'})
  turndown.use(tables)
  turndown.remove(['script', 'style', 'noscript', 'template'])
  if (html.length <= WEB_FETCH_HTML_CHARS) return turndown.turndown(html)
  const kept = turndown.turndown(html.slice(0, WEB_FETCH_HTML_CHARS))
  return `${kept}\n\n… the rest of ${url.href} (${html.length - WEB_FETCH_HTML_CHARS} more characters of HTML) was not converted`
}

/** What the network said, in one line the model can act on. */
function fetchFailure(error: unknown, url: string) {
  if (error instanceof ToolFailure) return failureResult(error, url)
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return toolError(`${url}: the host was not found`)
  if (code === 'ECONNREFUSED') return toolError(`${url}: the connection was refused`)
  if (code === 'ECONNRESET') return toolError(`${url}: the connection was reset`)
  if (typeof code === 'string' && /^(?:ERR_TLS|CERT_|DEPTH_|UNABLE_TO|SELF_SIGNED)/.test(code))
    return toolError(`${url}: the TLS certificate was not accepted (${code})`)
  if (typeof code === 'string') return toolError(`${url}: ${(error as Error).message}`)
  throw error
}
