import type {SessionPermissionMode as PermissionMode, ToolScope} from './agent-session.js'
import {readdir, readFile, stat} from 'node:fs/promises'
import {basename, join} from 'node:path'

import {FrontMatterError, parseFrontMatter} from './front-matter.js'

// Agent files (`<project>/.hanzo/agents/*.md`, the user's `agents` directory), one agent each: read
// by the agents plugin's commands and by the `task` tool's custom subagents alike.

export type {SessionPermissionMode as PermissionMode, ToolScope} from './agent-session.js'

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

export interface AgentDirs {
  /** `<project>/.hanzo/agents`: read only when the user trusts the project. */
  project: string
  /** `$XDG_CONFIG_HOME/hanzo/agents`: the user's own, always read. */
  user: string
  projectTrusted: boolean
}

export interface LoadedAgents {
  /** By name; a project agent replaces a user agent of the same name, as project settings do. */
  agents: AgentDefinition[]
  /** The project's agent files left out because the project is not trusted. */
  untrusted: string[]
}

export function agentDirs(projectRoot: string, configDir: string, projectTrusted: boolean): AgentDirs {
  return {project: join(projectRoot, '.hanzo', 'agents'), projectTrusted, user: join(configDir, 'agents')}
}

/** Every agent file; the first malformed one is an {@link AgentFileError} naming it. */
export async function loadAgents(dirs: AgentDirs): Promise<LoadedAgents> {
  const user = await readDir(dirs.user, 'user')
  const projectFiles = await agentFiles(dirs.project)
  if (!dirs.projectTrusted) return {agents: user, untrusted: projectFiles}
  const project = await readDir(dirs.project, 'project')
  const byName = new Map(user.map((agent) => [agent.name, agent]))
  for (const agent of project) byName.set(agent.name, agent)
  return {agents: [...byName.values()].sort((a, b) => a.name.localeCompare(b.name)), untrusted: []}
}

async function readDir(dir: string, source: AgentDefinition['source']): Promise<AgentDefinition[]> {
  const seen = new Map<string, string>()
  const agents: AgentDefinition[] = []
  for (const file of await agentFiles(dir)) {
    const agent = parseAgentFile(await readFile(file, 'utf8'), file, source)
    const other = seen.get(agent.name)
    if (other) throw new AgentFileError(file, `the name ${JSON.stringify(agent.name)} is taken by ${other}`, 'name')
    seen.set(agent.name, file)
    agents.push(agent)
  }

  return agents
}

/** The directory's `*.md` regular files (symlinks followed), sorted; none when it does not exist. */
async function agentFiles(dir: string): Promise<string[]> {
  let names: string[]
  try {
    names = await readdir(dir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return []
    throw error
  }

  const files: string[] = []
  for (const name of names.filter((n) => n.toLowerCase().endsWith('.md')).sort()) {
    const path = join(dir, name)
    if ((await stat(path).catch(() => undefined))?.isFile()) files.push(path)
  }

  return files
}
