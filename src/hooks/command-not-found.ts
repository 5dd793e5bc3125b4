import type {Hook} from '@oclif/core'
import {CLIError} from '@oclif/core/errors'

import {isInteractive} from '../cli/auth-terminal.js'
import {promptShortcut, resolveUnknownCommand} from '../core/command-lookup.js'
import {UserError} from '../core/errors.js'

/**
 * oclif's `command_not_found` hook: a prompt where a command would be runs it (promptShortcut:
 * `-p "task"` as `run "task"`, `"fix the bug"` as `chat "fix the bug"`); a command given stray words runs (its parser names them, exit
 * 2); a near miss is suggested ("did you mean ...?", exit 2), and on a terminal asked about and
 * run when accepted; anything else says where the commands are listed (exit 2, as any other
 * wrong argument). Replaces @oclif/plugin-not-found, which exits 127 off a terminal, suggests the
 * nearest command however far it is, and breaks when the suggestion fails to parse.
 */
const hook: Hook.CommandNotFound = async function ({argv = [], config, id}) {
  const typed = typedArgs(id, argv)
  const shortcut = promptShortcut(typed)
  if (shortcut?.id === 'chat' && !(process.stdin.isTTY && process.stdout.isTTY)) {
    // As `claude "task"`: the prompt opens the session, which needs a terminal; -p is the headless way.
    throw new UserError(`A prompt as the first argument opens the interactive session, which needs a terminal`, {
      exitCode: 2,
      hint: `${config.bin} -p ${JSON.stringify(shortcut.argv[0])} runs it headless`,
    })
  }

  if (shortcut) return config.runCommand(shortcut.id, shortcut.argv)
  const found = resolveUnknownCommand(typed, {
    commands: config.commands.filter((c) => !c.hidden).flatMap((c) => [c.id, ...c.aliases]),
    topics: config.topics.filter((t) => !t.hidden).map((t) => t.name),
  })
  const spaced = (name: string) => name.replaceAll(':', ' ')
  if (found.kind === 'stray') return config.runCommand(found.id, found.argv)

  // `hanzo-dev --bogus`: oclif takes a first word that is no flag of its own for a command id.
  const notFound = found.typed.startsWith('-')
    ? `Nonexistent flag: ${found.typed}.`
    : `${found.typed} is not a ${config.bin} command.`
  const list = `Run ${config.bin}${found.kind === 'unknown' && found.topic ? ` ${spaced(found.topic)}` : ''} --help for a list of commands.`
  if (found.kind === 'unknown') throw new CLIError(`${notFound} ${list}`, {exit: 2})

  const question = `Did you mean ${spaced(found.id)}?`
  if (!isInteractive()) throw new CLIError(`${notFound} ${question}`, {exit: 2})
  this.warn(notFound)
  const {confirm} = await import('@inquirer/prompts')
  if (!(await confirm({default: true, message: question}, {output: process.stderr})))
    throw new CLIError(list, {exit: 2})
  return found.topic ? config.runCommand('help', [found.id]) : config.runCommand(found.id, found.argv)
}

export default hook

/**
 * The command line as typed, when `id` came from it: oclif joins words with ":" and splits them
 * again by counting colons, so a prompt holding one (`rn "fix a:b"`) would lose words.
 */
function typedArgs(id: string, argv: string[]): string[] {
  const typed = process.argv.slice(2)
  for (let n = 1; n <= typed.length; n++) if (typed.slice(0, n).join(':') === id) return typed
  return [...id.split(':'), ...argv]
}
