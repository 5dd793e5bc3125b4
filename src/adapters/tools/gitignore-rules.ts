/**
 * One `ignore` matcher for a whole walk instead of one per `.gitignore`: the rules of a nested
 * `.gitignore` are rewritten to apply from the workspace root (`*.log` in `pkg/` becomes
 * `pkg/**\/*.log`) and added after its ancestors' rules, so git's precedence falls out of "the
 * last matching rule wins": a deeper file overrides a shallower one, and nothing is re-included
 * inside an excluded directory.
 */

/** The rules of the `.gitignore` text found in `dir` (workspace-relative, `/`-separated, `''` for the root). */
export function rebaseGitignore(text: string, dir: string): string[] {
  const lines = text.split(/\r?\n/)
  if (dir === '') return lines
  const prefix = escapeGlob(dir)
  const rules: string[] = []
  for (const line of lines) {
    if (line.startsWith('#')) continue
    const negated = line.startsWith('!')
    let pattern = trimTrailingSpaces(negated ? line.slice(1) : line)
    const directoryOnly = pattern.endsWith('/')
    if (directoryOnly) pattern = pattern.slice(0, -1)
    // A slash at the start or in the middle anchors the pattern to its .gitignore's directory;
    // without one it matches at any depth below it.
    const anchored = pattern.includes('/')
    if (pattern.startsWith('/')) pattern = pattern.slice(1)
    if (pattern === '') continue
    rules.push(`${negated ? '!' : ''}${prefix}/${anchored ? '' : '**/'}${pattern}${directoryOnly ? '/' : ''}`)
  }

  return rules
}

/** A directory path as literal glob text: its glob characters escaped, and a leading `!` or `#`. */
function escapeGlob(path: string): string {
  const escaped = path.replaceAll(/[\\*?[\]]/g, '\\$&')
  return /^[!#]/.test(escaped) ? `\\${escaped}` : escaped
}

/** Trailing spaces are not part of a gitignore pattern unless escaped with a backslash. */
function trimTrailingSpaces(pattern: string): string {
  let end = pattern.length
  while (end > 0 && pattern[end - 1] === ' ' && pattern[end - 2] !== '\\') end--
  return pattern.slice(0, end)
}
