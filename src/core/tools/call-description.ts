import {
  type FileChange,
  TOOL_KINDS,
  type ToolCall,
  type ToolContext,
  type ToolDefinition,
  type ToolKind,
  type ToolLocation,
  type ToolSubject,
} from '@hanzo-dev/sdk/tools'

/**
 * What a tool says of one call (ToolDefinition's `kind`, `subject`, `describe`, `locations`),
 * asked once and checked, for everything that acts on the call: permissions, the question,
 * middleware. A plugin's answer of the wrong shape, or one that throws, counts as saying
 * nothing; a subject that cannot be had leaves the call matched by its tool's name alone, as a
 * call of a tool without subjects is (never judged by a subject it might have had).
 */
export interface CallDescription {
  kind: ToolKind
  /** Undefined: the tool names no subjects. Null: it does, and this call has none (or it could not be had). */
  subject: ToolSubject | null | undefined
  /** One line for the user: the tool's own, else the subject, else the input as JSON (empty for no input). */
  title: string
  locations: ToolLocation[]
}

export function describeCall(definition: ToolDefinition, input: Record<string, unknown>): CallDescription {
  const kind = TOOL_KINDS.find((known) => known === definition.kind) ?? 'other'
  const subject = definition.subject ? (attempt(() => definition.subject?.(input), isSubject) ?? null) : undefined
  const title =
    attempt(() => definition.describe?.(input), isText) ??
    subjectText(subject) ??
    (Object.keys(input).length > 0 ? JSON.stringify(input) : '')
  const locations = attempt(() => definition.locations?.(input), isLocations) ?? []
  return {kind, locations, subject, title}
}

/** The call middleware gets: the tool's name and the input, with what the tool says of it. */
export function describedCall(name: string, input: Record<string, unknown>, description: CallDescription): ToolCall {
  const {kind, locations, subject} = description
  return {input, kind, locations, name, ...(subject ? {subject} : {})}
}

/**
 * What the call would change, asked when the question is about to be shown (reading files for a
 * diff is not worth it for a call no one is asked about); nothing when the tool cannot say.
 */
export function callPreview(
  definition: ToolDefinition,
  input: Record<string, unknown>,
  context: ToolContext,
): (() => Promise<FileChange[]>) | undefined {
  const {preview} = definition
  if (!preview) return undefined
  return async () => {
    const changes: unknown = await Promise.resolve()
      .then(() => preview.call(definition, input, context))
      .catch(() => [])
    return Array.isArray(changes) ? changes.filter((change) => isFileChange(change)) : []
  }
}

/** The subject as the user reads it. */
export function subjectText(subject: ToolSubject | null | undefined): string | undefined {
  if (!subject) return undefined
  switch (subject.kind) {
    case 'command': {
      return subject.command
    }

    case 'path': {
      return subject.path
    }

    case 'url': {
      return subject.url
    }
  }
}

function attempt<T>(ask: () => unknown, valid: (value: unknown) => value is T): T | undefined {
  try {
    const value = ask()
    return valid(value) ? value : undefined
  } catch {
    return undefined
  }
}

function isSubject(value: unknown): value is ToolSubject {
  if (typeof value !== 'object' || value === null) return false
  const subject = value as Record<string, unknown>
  if (subject.kind === 'path') return typeof subject.path === 'string'
  if (subject.kind === 'command') return typeof subject.command === 'string'
  return subject.kind === 'url' && typeof subject.url === 'string'
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

function isLocations(value: unknown): value is ToolLocation[] {
  return (
    Array.isArray(value) &&
    value.every((location: unknown) => typeof (location as ToolLocation | null)?.path === 'string')
  )
}

function isFileChange(value: unknown): value is FileChange {
  const change = value as FileChange | null
  const text = (side: unknown) => side === null || typeof side === 'string'
  return typeof change?.path === 'string' && text(change.after) && (change.before === undefined || text(change.before))
}
