/**
 * A headless stand-in for the user's browser against the test authorization server (server.ts):
 * plain fetch plus a cookie jar, following redirects by hand so it can stop at the client's
 * loopback callback instead of trying to load it.
 *
 * Login and consent are the server's JSON interaction routes (interactions.ts). The device flow's
 * user-code and confirmation pages are oidc-provider's own HTML; their forms are read with small
 * regexes for the action, the hidden `xsrf` token and nothing else.
 */
export interface LoginChoice {
  /** Account id to sign in as; the server accepts any. */
  account: string
  /** `false` denies at the consent step: the client gets `error=access_denied`. */
  consent?: boolean
}

export interface DeviceChoice {
  account: string
  /** `false` denies at the consent step: the device's poll gets `access_denied`. */
  approve?: boolean
}

const MAX_HOPS = 20

export class HeadlessBrowser {
  private readonly cookies = new CookieJar()

  /**
   * Opens an authorization URL, signs in and answers consent, and returns the redirect to the
   * client — the callback URL with `code`, `state` and `iss`, or with `error`. The callback itself
   * is not requested, so nothing needs to listen on its port.
   */
  async approveAuthorization(authorizeUrl: string | URL, choice: LoginChoice): Promise<URL> {
    const end = await this.drive(
      new URL(authorizeUrl),
      {body: undefined, method: 'GET'},
      choice.account,
      choice.consent ?? true,
    )
    if (end.leftIssuer) return end.url
    throw new Error(
      `authorization ended on ${end.url.href} (HTTP ${end.status}) instead of redirecting to the client: ${end.text.slice(0, 300)}`,
    )
  }

  /** Enters the user code at the verification URI, confirms it, signs in and answers consent. */
  async approveDevice(verificationUri: string | URL, userCode: string, choice: DeviceChoice): Promise<void> {
    const start = new URL(verificationUri)
    const input = await this.page(start)
    const confirm = await this.submit(input, {user_code: userCode})
    const end = await this.submit(
      confirm,
      {confirm: 'yes', user_code: userCode},
      choice.account,
      choice.approve ?? true,
    )
    if (end.status !== 200)
      throw new Error(`device approval ended with HTTP ${end.status} on ${end.url.href}: ${end.text.slice(0, 300)}`)
  }

  private async page(url: URL): Promise<Page> {
    const end = await this.drive(url, {body: undefined, method: 'GET'})
    return {...end, form: readForm(end.text, end.url)}
  }

  private async submit(page: Page, fields: Record<string, string>, account?: string, consent?: boolean): Promise<Page> {
    if (!page.form)
      throw new Error(`expected a form on ${page.url.href} (HTTP ${page.status}): ${page.text.slice(0, 300)}`)
    const body = new URLSearchParams({xsrf: page.form.xsrf, ...fields})
    const end = await this.drive(page.form.action, {body, method: 'POST'}, account, consent)
    return {...end, form: readForm(end.text, end.url)}
  }

  /**
   * Follows redirects from one request until a page that is neither a redirect nor an
   * interaction, answering interactions on the way; stops early when a redirect leaves the issuer.
   */
  private async drive(url: URL, request: Request, account?: string, consent = true): Promise<End> {
    const origin = url.origin
    let next = {request, url}
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const response = await this.fetch(next.url, next.request)
      const location = response.headers.get('location')
      if (response.status >= 300 && response.status < 400 && location) {
        const target = new URL(location, next.url)
        if (target.origin !== origin) return {leftIssuer: true, status: response.status, text: '', url: target}
        next = {request: {body: undefined, method: 'GET'}, url: target}
        continue
      }
      const text = await response.text()
      if (!/^\/interaction\/[^/]+$/.test(next.url.pathname) || response.status !== 200) {
        return {leftIssuer: false, status: response.status, text, url: next.url}
      }
      const {prompt} = JSON.parse(text) as {prompt: string}
      if (prompt !== 'login' && prompt !== 'consent') throw new Error(`unexpected interaction prompt ${prompt}`)
      if (account === undefined) throw new Error(`the server asked for ${prompt} but no account was given`)
      const action = prompt === 'login' ? 'login' : consent ? 'consent' : 'abort'
      next = {
        request: {body: new URLSearchParams({account}), method: 'POST'},
        url: new URL(`${next.url.pathname}/${action}`, next.url),
      }
    }
    throw new Error(`more than ${MAX_HOPS} redirects from ${url.href}`)
  }

  private async fetch(url: URL, request: Request): Promise<Response> {
    const headers: Record<string, string> = {}
    const cookie = this.cookies.header(url)
    if (cookie) headers.cookie = cookie
    const response = await fetch(url, {...request, headers, redirect: 'manual'})
    this.cookies.store(url, response.headers.getSetCookie())
    return response
  }
}

interface Request {
  method: 'GET' | 'POST'
  body: URLSearchParams | undefined
}

interface End {
  leftIssuer: boolean
  status: number
  text: string
  url: URL
}

interface Page extends End {
  form: {action: URL; xsrf: string} | undefined
}

function readForm(html: string, base: URL): Page['form'] {
  const action = /<form\b[^>]*\baction="([^"]*)"/i.exec(html)?.[1]
  const xsrf = /<input\b[^>]*\bname="xsrf"[^>]*\bvalue="([^"]*)"/i.exec(html)?.[1]
  return action !== undefined && xsrf !== undefined ? {action: new URL(decodeEntities(action), base), xsrf} : undefined
}

function decodeEntities(value: string) {
  return value.replaceAll('&amp;', '&').replaceAll('&#x2F;', '/').replaceAll('&#47;', '/')
}

/** One origin's cookies, matched by path only: the tests talk to a single host over http. */
class CookieJar {
  private readonly jar = new Map<string, {name: string; path: string; value: string}>()

  header(url: URL): string {
    return [...this.jar.values()]
      .filter(({path}) => url.pathname === path || url.pathname.startsWith(path.endsWith('/') ? path : `${path}/`))
      .map(({name, value}) => `${name}=${value}`)
      .join('; ')
  }

  store(url: URL, setCookies: string[]) {
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim())
      const split = pair.indexOf('=')
      const name = pair.slice(0, split)
      const value = pair.slice(split + 1)
      const attribute = (key: string) =>
        attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1)
      const path = attribute('path') ?? (url.pathname.replace(/\/[^/]*$/, '') || '/')
      const expires = attribute('expires')
      const gone =
        value === '' || attribute('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now())
      const key = `${name};${path}`
      if (gone) this.jar.delete(key)
      else this.jar.set(key, {name, path, value})
    }
  }
}
