import type {AgentSession} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {backgroundOf} from '../adapters/agent-session/index.js'
import {backgroundStatus} from '../adapters/tools/index.js'
import {UserError} from '../core/errors.js'

/**
 * `/bashes`: the commands the model started in the background (exec with `background: true`),
 * each with its id, how it stands and its command line; `/bashes kill ID` ends one and everything
 * it started. The command lines are the model's: they reach the screen through the printer.
 */
export async function bashesCommand(argv: readonly string[], session: AgentSession): Promise<string> {
  const background = backgroundOf(session)
  const commands = background?.list() ?? []
  if (argv.length === 0) {
    if (commands.length === 0) return 'No background commands in this session.'
    const statuses = commands.map((command) => backgroundStatus(command))
    const width = Math.max(...statuses.map((status) => status.length))
    return [
      ...commands.map(({command, id}, index) => `  ${id}  ${statuses[index].padEnd(width)}  ${oneLine(command)}`),
      '/bashes kill ID ends one.',
    ].join('\n')
  }

  if (argv[0] !== 'kill' || argv.length !== 2) throw new UserError('Usage: /bashes, or /bashes kill ID')
  const id = argv[1]
  const found = commands.find((command) => command.id === id)
  if (!background || !found) throw new UserError(`There is no background command ${oneLine(id)}: /bashes lists them`)
  if (found.exit) return `${id} had already ended: ${backgroundStatus(found)}`
  const ended = await background.kill(id)
  return `${id} ended: ${backgroundStatus(ended ?? found)}`
}
