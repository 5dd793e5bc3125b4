import type {SessionPermissionMode as PermissionMode, ToolScope} from '@hanzo-dev/sdk'
import {basename} from 'node:path'

import {FrontMatterError, parseFrontMatter} from '@hanzo-dev/sdk/front-matter'

export type {SessionPermissionMode as PermissionMode, ToolScope} from '@hanzo-dev/sdk'

/** The permission modes of `--permission-mode`, for validating a file (the core's SESSION_PERMISSION_MODES; plugins cannot import it). */
export const PERMISSION_MODES: readonly PermissionMode[] = ['prompt', 'allow-reads', 'deny', 'allow-all']

export interface AgentDefinition {
  name: string
  description: string
  /** Default `read-only`: an agent file has to ask for edits and commands. */
  tools: ToolScope
  model?: string
  permissionMode?: PermissionMode
  /** The file's body: prepended to the session's system prompt. */
  systemPrompt: string
  source: 'project' | 'user'
  file: string
}

export const AGENT_FIELDS = ['name', 'description', 'tools', 'model', 'permission_mode'] as const
const NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/
const TOOL_NAME = /^[A-Za-z0-9_.-]+$/

/** A file that is not a valid agent: the message names the file and, when there is one, the field. */
export class AgentFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: string,
    readonly field?: string,
    readonly line?: number,
  ) {
    super(`${file}${line ? `:${line}` : ''}: ${field ? `\`${field}\`: ` : ''}${problem}`)
  }
}

/** An agent file's text -> its definition; the name defaults to the file's name without `.md`. */
export function parseAgentFile(text: string, file: string, source: AgentDefinition['source']): AgentDefinition {
  let parsed
  try {
    parsed = parseFrontMatter(text)
  } catch (error) {
    if (error instanceof FrontMatterError) throw new AgentFileError(file, error.message, error.field, error.line)
    throw error
  }

  const {body, fields} = parsed
  const fail = (field: string, problem: string): never => {
    throw new AgentFileError(file, problem, field)
  }

  for (const key of Object.keys(fields)) {
    if (!(AGENT_FIELDS as readonly string[]).includes(key))
      fail(key, `unknown field (the fields are ${AGENT_FIELDS.join(', ')})`)
  }

  const text_ = (field: string): string | undefined => {
    const value = fields[field]
    if (value === undefined) return undefined
    if (typeof value !== 'string' || value.trim() === '') return fail(field, 'must be a non-empty string')
    return value.trim()
  }

  const name = text_('name') ?? basename(file).replace(/\.md$/i, '')
  if (!NAME.test(name))
    fail('name', `${JSON.stringify(name)} is not a valid name (lowercase letters, digits, - and _, up to 64)`)
  const description = text_('description') ?? fail('description', 'is required: one line saying what the agent does')
  const mode = text_('permission_mode')
  if (mode !== undefined && !(PERMISSION_MODES as readonly string[]).includes(mode)) {
    fail('permission_mode', `${JSON.stringify(mode)} is not one of ${PERMISSION_MODES.join(', ')}`)
  }

  // A repository's file must not answer permission prompts for the user (trust covers its settings, not these files).
  if (source === 'project' && (mode === 'allow-all' || mode === 'allow-reads')) {
    fail(
      'permission_mode',
      `a project's agent may not set ${mode} (only prompt or deny): pass --permission-mode ${mode} yourself, or put the agent in your own agents directory`,
    )
  }

  if (body === '') fail('body', 'the system prompt (the text after the front matter) is empty')
  return {
    description,
    file,
    model: text_('model'),
    name,
    permissionMode: mode as PermissionMode | undefined,
    source,
    systemPrompt: body,
    tools: toolScope(fields.tools, fail),
  }
}

function toolScope(value: string | string[] | undefined, fail: (field: string, problem: string) => never): ToolScope {
  if (value === undefined) return 'read-only'
  const names = typeof value === 'string' ? value.split(',').map((item) => item.trim()) : value
  if (typeof value === 'string' && names.length === 1 && ['all', 'read-only', 'none'].includes(names[0]))
    return names[0] as ToolScope
  const bad = names.find((item) => !TOOL_NAME.test(item))
  if (bad !== undefined)
    fail('tools', `${JSON.stringify(bad)} is not a tool name (use all, read-only, none, or a list of tool names)`)
  return names
}
