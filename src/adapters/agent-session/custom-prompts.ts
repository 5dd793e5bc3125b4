import type {CustomAgent, CustomPrompts} from '@hanzo-dev/sdk'
import {agentDirs, AgentFileError, loadAgents} from '@hanzo-dev/sdk/agent-files'

import {trustedCommandFiles} from '../custom-commands.js'

export interface CustomPromptDirs {
  projectRoot: string
  configDir: string
  /** The project's agent and command files left out for want of trust (LoadedConfig.trust.inert.agents). */
  untrusted: readonly string[]
}

/**
 * The command files and agent files a session trusts (AgentSession.customPrompts), read by the
 * loaders the chat and the `task` tool use, so the trust gate is theirs: a project's files count
 * once its digest, which covers them, is trusted. A malformed agent file leaves out every agent,
 * as the task tool does.
 */
export async function loadCustomPrompts(
  dirs: CustomPromptDirs,
  warn: (message: string) => void,
): Promise<CustomPrompts> {
  const {commands, warnings} = await trustedCommandFiles(dirs)
  for (const warning of warnings) warn(warning)
  let agents: CustomAgent[] = []
  try {
    const loaded = await loadAgents(agentDirs(dirs.projectRoot, dirs.configDir, dirs.untrusted.length === 0))
    agents = loaded.agents.map(({description, name, systemPrompt}) => ({description, instructions: systemPrompt, name}))
  } catch (error) {
    if (!(error instanceof AgentFileError)) throw error
    warn(`no agent is offered: invalid agent file ${error.message}`)
  }

  return {agents, commands}
}
