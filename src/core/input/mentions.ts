/**
 * `@path` mentions in an interactive prompt: the files the user attaches to it. A mention starts
 * with `@` at the start of the text or after whitespace (so `ada@example.com` is not one), and is
 * the path up to the next whitespace, or a quoted path (`@"my notes.md"`) when it has spaces.
 * Punctuation that ends a sentence (`see @src/a.ts.`) is not part of the path.
 */
export interface Mention {
  path: string
  /** Where the mention (its `@` included) starts and ends in the text. */
  start: number
  end: number
}

const MENTION = /(?<=^|\s)@(?:"([^"\n]+)"|([^\s"]+))/g
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]+$/

export function findMentions(text: string): Mention[] {
  const mentions: Mention[] = []
  for (const match of text.matchAll(MENTION)) {
    const quoted = match[1]
    const path = quoted ?? match[2].replace(TRAILING_PUNCTUATION, '')
    if (path === '') continue
    const start = match.index
    mentions.push({end: start + 1 + (quoted === undefined ? path.length : quoted.length + 2), path, start})
  }

  return mentions
}

/** The mention being typed at `cursor`: the `@` and what follows up to the cursor; undefined when the cursor is not in one. */
export function mentionAt(text: string, cursor: number): {start: number; prefix: string} | undefined {
  const before = text.slice(0, cursor)
  const match = /(?:^|\s)@([^\s"]*)$/.exec(before)
  if (!match) return undefined
  return {prefix: match[1], start: cursor - match[1].length - 1}
}

export interface Completion {
  /** What the typed prefix becomes: the longest path all candidates share. */
  completion: string
  /** The entries that match (a directory ends with `/`), at most `limit`. */
  candidates: string[]
}

/**
 * Tab completion of a path prefix against the project's files (`/`-separated, relative): the
 * files and directories one level below what is typed, so a long tree is walked a level at a
 * time as in a shell. No match: undefined.
 */
export function completePath(prefix: string, files: readonly string[], limit = 20): Completion | undefined {
  const entries = new Set<string>()
  const base = prefix.slice(0, prefix.lastIndexOf('/') + 1)
  for (const file of files) {
    if (!file.startsWith(prefix)) continue
    const slash = file.indexOf('/', base.length)
    entries.add(slash === -1 ? file : file.slice(0, slash + 1))
  }

  if (entries.size === 0) return undefined
  const sorted = [...entries].sort()
  return {candidates: sorted.slice(0, limit), completion: commonPrefix(sorted)}
}

/** The longest start all `values` share. */
export function commonPrefix(values: readonly string[]): string {
  let prefix = values[0]
  for (const value of values) {
    while (!value.startsWith(prefix)) prefix = prefix.slice(0, -1)
  }

  return prefix
}
