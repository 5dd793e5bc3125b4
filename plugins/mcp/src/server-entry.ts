export type {SettingsServer} from '@hanzo-dev/sdk/mcp-json'

/** `K:V` (headers) or `K=V` (env) pairs; a pair without the separator is an error naming it. */
export function parsePairs(
  pairs: readonly string[],
  separator: ':' | '=',
  flag: string,
): Record<string, string> | string {
  const result: Record<string, string> = {}
  for (const pair of pairs) {
    const at = pair.indexOf(separator)
    const key = at > 0 ? pair.slice(0, at).trim() : ''
    if (!key)
      return `${flag} takes NAME${separator}VALUE, got ${JSON.stringify(pair.length > 40 ? `${pair.slice(0, 40)}…` : pair)}`
    result[key] = pair.slice(at + 1).trim()
  }

  return result
}
