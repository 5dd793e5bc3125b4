import type {ToolLocation, ToolSubject} from '@hanzo-dev/sdk'

/**
 * How the file tools describe a call (ToolDefinition.subject, .locations): by the `path` it
 * gives. A listing or search without one covers the workspace root: that is where it looks,
 * but no path a rule could name.
 */
export function pathSubject(input: {path?: unknown}): ToolSubject | undefined {
  return typeof input.path === 'string' ? {kind: 'path', path: input.path} : undefined
}

export function pathLocations(input: {path?: unknown}): ToolLocation[] {
  return [{path: typeof input.path === 'string' ? input.path : '.'}]
}
