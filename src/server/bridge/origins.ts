import {UserError} from '../../core/errors.js'

/**
 * The browser origins a bridge accepts. Both sides are compared in their canonical form (the
 * WHATWG serialization: lower-case scheme and host, the scheme's default port dropped), so
 * `https://Chat.Hanzo.ai:443` on the list matches the `https://chat.hanzo.ai` a browser sends,
 * while a look-alike (`https://chat.hanzo.ai.evil.example`, `http://chat.hanzo.ai`) never does.
 */
export class OriginAllowList {
  private readonly allowed: ReadonlySet<string>

  /** Throws a UserError naming the entry when one is not an http(s) origin. */
  constructor(entries: readonly string[]) {
    if (entries.length === 0)
      throw new UserError('No origin is allowed', {
        exitCode: 2,
        hint: 'pass --allow-origin ORIGIN (repeatable), e.g. --allow-origin https://chat.hanzo.ai',
      })
    this.allowed = new Set(entries.map((entry) => canonicalOrigin(entry) ?? invalidEntry(entry)))
  }

  get origins(): string[] {
    return [...this.allowed]
  }

  /** Whether an Origin header value is on the list; a missing or opaque (`null`) origin never is. */
  allows(header: string | undefined): boolean {
    if (header === undefined) return false
    const canonical = canonicalOrigin(header)
    return canonical !== undefined && this.allowed.has(canonical)
  }
}

/** The canonical form of an http(s) origin (no path, query, user info), or undefined. */
export function canonicalOrigin(value: string): string | undefined {
  let url: URL
  try {
    url = new URL(value.trim())
  } catch {
    return undefined
  }

  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== ''))
    return undefined
  // An Origin header never ends in "/": an entry that does is a typo worth refusing, not a path.
  if (value.trim().endsWith('/')) return undefined
  return url.origin
}

function invalidEntry(entry: string): never {
  throw new UserError(`--allow-origin ${JSON.stringify(entry)} is not an origin`, {
    exitCode: 2,
    hint: 'give scheme://host[:port], e.g. https://chat.hanzo.ai (no path, no wildcard)',
  })
}
