/**
 * What a permission pattern's argument is matched against: a call's subject, which its tool
 * names (ToolDefinition.subject: a path, a command line, a URL). A call without one is matched
 * by its tool's name alone: a pattern with an argument never matches it.
 */
export type {ToolSubject} from '@hanzo-dev/sdk'

/** `fs.write` and `fs_write` spell the same tool (ARCHITECTURE.md, "Names"). */
export function canonicalToolName(name: string): string {
  return name.replaceAll('.', '_')
}
