// Shared with the plugins, which show MCP servers' settings redacted the same way.
import {hasSecretShape, isSecretFlag, isSecretName} from '@hanzo-dev/sdk/settings'

import {isPlainObject, type JsonObject} from './key-path.js'

export {hasSecretShape, isSecretFlag, isSecretName} from '@hanzo-dev/sdk/settings'

/**
 * Which settings only the user tier may hold (what is shown redacted is redact.ts's concern).
 *
 * A repository's `.hanzo/settings.json` is written by whoever wrote the repository, so it may not
 * carry credentials (they would be committed, or be someone else's) nor widen where the user's
 * credentials may be sent. Such keys in the project or local tier are ignored with a warning.
 */

export type UserOnlyReason = 'credential' | 'trust'

/** Why the key at `segments` may only come from the user tier (or the environment), if it must. */
export function userOnlyReason(segments: readonly string[]): UserOnlyReason | undefined {
  const [top, name, field, sub] = segments
  if (top === 'api_key' || top === 'oauth_credentials') return 'credential'
  if (top === 'allowed_base_url_hosts' || top === 'credentials' || top === 'tracing') return 'trust'
  // A repository that named variables here would have the user's secrets handed to its commands.
  if (top === 'exec' && name === 'env_passthrough') return 'trust'
  // Where the model's queries go, with the user's Hanzo credential or the key a variable names.
  if (top === 'web_search') return 'trust'
  // A server command is a program that runs as soon as the agent touches a matching file; so is
  // one from the project's node_modules/.bin, which whoever wrote the repository put there.
  if (top === 'lsp' && (name === 'servers' || name === 'project_servers')) return 'trust'
  if (top === 'providers' && segments.length >= 3 && (field === 'api_key' || field === 'oauth')) return 'credential'
  if (top === 'mcp_servers' && name !== undefined && (field === 'env' || field === 'headers') && sub !== undefined) {
    return isSecretName(sub) ? 'credential' : undefined
  }

  return undefined
}

/**
 * Whether the words of a command line may hold a secret: the value of a secret-named flag,
 * variable or header (`--token X`, `--api-key=X`, `API_TOKEN=X`, `Authorization: Bearer X`),
 * a URL with user info, or a word that looks like a key.
 */
export function wordsCarrySecret(words: readonly string[]): boolean {
  return words.some((word, i) => {
    const previous = i > 0 ? words[i - 1] : ''
    if (isSecretFlag(previous) || (previous.endsWith(':') && isSecretName(previous.slice(0, -1)))) return true
    const named = /^-{0,2}([A-Za-z_][\w.-]*)[:=](.*)$/.exec(word)
    return (
      (named !== null && (isSecretName(named[1]) || hasSecretShape(named[2]))) ||
      hasSecretShape(word) ||
      hasUrlUserinfo(word)
    )
  })
}

function parseUrl(text: string): URL | undefined {
  if (!/^[a-z][\d+.a-z-]*:\/\//i.test(text)) return undefined
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

/** Whether `text` is a URL with a user name or password in it (`https://user:pw@host/`). */
export function hasUrlUserinfo(text: string): boolean {
  const url = parseUrl(text)
  return url !== undefined && (url.username !== '' || url.password !== '')
}

/** Whether `text` is a URL with a user name, password, or a secret-named query parameter. */
function urlCarriesSecret(text: string): boolean {
  const url = parseUrl(text)
  return url !== undefined && (hasUrlUserinfo(text) || [...url.searchParams.keys()].some((k) => isSecretName(k)))
}

/**
 * Whether an MCP server's settings carry a credential: a secret-named `env` or `headers` entry,
 * a secret flag in its command line, or a URL with user info or a secret-named query parameter.
 */
export function serverCarriesSecrets(server: JsonObject): boolean {
  const names = [server.env, server.headers].flatMap((map) => (isPlainObject(map) ? Object.keys(map) : []))
  const argv = [server.command, server.args].flatMap((list) => (Array.isArray(list) ? list : []))
  return (
    names.some((name) => isSecretName(name)) ||
    argv.some(
      (arg) =>
        typeof arg === 'string' && (isSecretFlag(arg) || isSecretFlag(arg.split('=')[0]) || urlCarriesSecret(arg)),
    ) ||
    (typeof server.url === 'string' && urlCarriesSecret(server.url))
  )
}
