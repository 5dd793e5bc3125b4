import type {AgentSession} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {skillsOf} from '../adapters/agent-session/index.js'

/**
 * `/skills`: the skills the model may load, each with its description and where it came from.
 * Names and descriptions are the skill files' words: they reach the screen through the printer.
 */
export function skillsCommand(session: AgentSession): string {
  const skills = skillsOf(session)
  if (skills.length === 0)
    return 'No skills. A skill is a folder with a SKILL.md in .hanzo/skills (once the project is trusted) or in your skills directory.'
  const width = Math.max(...skills.map(({name}) => oneLine(name).length))
  return skills
    .map(
      ({description, name, source}) => `  ${oneLine(name).padEnd(width)}  ${oneLine(description)} (${oneLine(source)})`,
    )
    .join('\n')
}
