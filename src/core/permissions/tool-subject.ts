/**
 * What a permission pattern's argument is matched against: a call's subject. `exec` has its
 * `command`, the file tools (`fs_*`) their `path`; other tools have none, so a pattern with an
 * argument never matches them (an MCP tool's inputs have no meaning a glob could rely on).
 */
export type ToolSubject = {kind: 'command'; command: string} | {kind: 'path'; path: string}

/** `fs.write` and `fs_write` spell the same tool (ARCHITECTURE.md, "Names"). */
export function canonicalToolName(name: string): string {
  return name.replaceAll('.', '_')
}

/** The call's subject; undefined for tools without one, and when the input lacks it or it is not a string. */
export function toolSubject(toolName: string, input: Readonly<Record<string, unknown>>): ToolSubject | undefined {
  const name = canonicalToolName(toolName)
  if (name === 'exec') return typeof input.command === 'string' ? {command: input.command, kind: 'command'} : undefined
  if (name.startsWith('fs_')) return typeof input.path === 'string' ? {kind: 'path', path: input.path} : undefined
  return undefined
}
