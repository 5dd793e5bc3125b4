import {readdir, readFile, stat} from 'node:fs/promises'
import {join} from 'node:path'

import {type AgentDefinition, AgentFileError, parseAgentFile} from './agent-file.js'

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
