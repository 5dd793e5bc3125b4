import type {AgentSession} from '@hanzo-dev/sdk'

import type {BackgroundProcesses} from '../tools/background-processes.js'
import type {Subagents} from '../tools/subagents.js'
import type {Skill} from '../skills.js'
import {AgentSessionNode} from './session.js'

/** A session's background commands; undefined for one not opened here (a library caller's own). */
export function backgroundOf(session: AgentSession): BackgroundProcesses | undefined {
  return session instanceof AgentSessionNode ? session.background : undefined
}

/** The skills a session's `skill` tool loads (the chat's `/skills`); none for one not opened here. */
export function skillsOf(session: AgentSession): readonly Skill[] {
  return session instanceof AgentSessionNode ? session.skills : []
}

/** A session's `task` children; undefined for one not opened here. */
export function subagentsOf(session: AgentSession): Subagents | undefined {
  return session instanceof AgentSessionNode ? session.subagents : undefined
}
