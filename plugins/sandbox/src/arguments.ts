/**
 * The positional arguments of a non-strict command, in the order given. oclif's parsed `argv`
 * moves a repeated word next to its first occurrence (`sh -c '...' sh` comes out as
 * `sh sh -c '...'`), which would change the command `sandbox exec` runs; `raw` keeps the order.
 */
export function argumentsIn(raw: ReadonlyArray<{type: string; input: string}>): string[] {
  return raw.filter((token) => token.type === 'arg').map((token) => token.input)
}
