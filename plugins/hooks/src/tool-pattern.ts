/**
 * Whether a hook's `tool_pattern` (a glob: `*` any run of characters, `?` one character)
 * matches a tool name. A dot and an underscore spell the same built-in tool (`fs.write` is
 * `fs_write`, as in permission rules), so both sides are compared with dots read as underscores.
 */
export function matchesToolPattern(pattern: string, toolName: string): boolean {
  const source = [...canonical(pattern)]
    .map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replaceAll(/[\\^$.+()[\]{}|]/g, '\\$&')))
    .join('')
  return new RegExp(`^${source}$`, 'su').test(canonical(toolName))
}

function canonical(name: string): string {
  return name.replaceAll('.', '_')
}
