import {relative} from 'node:path'

import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {loadSettings} from '../adapters/host-context.js'
import {editSetting} from '../cli/settings-target.js'
import type {PermissionRule} from '../core/config/types.js'
import {UserError} from '../core/errors.js'
import type {SessionApprovals} from '../core/permissions/session-approvals.js'

export interface PermissionsFacts {
  /** What "allow for this session" allowed in this chat. */
  approvals: SessionApprovals
  permissionMode: string
  /** The workspace: its settings files are the project's and the local ones. */
  cwd: string
  env: Readonly<Record<string, string | undefined>>
}

const USAGE = '/permissions lists the rules; /permissions remove N (or rm N) takes rule N out'

/**
 * `/permissions`: the session's approvals, then the saved rules (each with the file it comes
 * from), numbered in one list; `/permissions remove N` takes one out: an approval from the
 * session, a saved rule from its settings file (the `config unset` writer: atomic, the rest of
 * the file kept). The saved rules are read from the files each time: what an editor or `config
 * set` changed meanwhile is listed as it is, though this session goes on with the rules it
 * started with, as `config set` says of a running session.
 */
export async function permissionsCommand(argv: readonly string[], facts: PermissionsFacts): Promise<string> {
  const [verb, number, ...rest] = argv
  if (verb === undefined) return listing(facts)
  if ((verb !== 'remove' && verb !== 'rm') || number === undefined || rest.length > 0) throw new UserError(USAGE)
  return remove(number, facts)
}

async function listing(facts: PermissionsFacts): Promise<string> {
  const session = facts.approvals.list()
  const {permissionRules, projectRoot} = await loadSettings({cwd: facts.cwd, env: facts.env})
  let number = 0
  const numbered = (text: string) => `  ${String(++number).padStart(3)}  ${text}`
  const toolWidth = Math.max(0, ...session.map(({tool}) => tool.length))
  const patternWidth = Math.min(40, Math.max(0, ...permissionRules.map(({pattern}) => oneLine(pattern).length)))
  return [
    `Permission mode: ${facts.permissionMode} (--permission-mode sets it; deny rules apply in every mode)`,
    '',
    'Allowed for this session (answer a question with a):',
    ...(session.length === 0
      ? ['  none yet']
      : session.map(({covers, tool}) => numbered(`${tool.padEnd(toolWidth)}  ${oneLine(covers)}`))),
    '',
    'Saved rules (in each file the first match wins; a deny in any file wins):',
    ...(permissionRules.length === 0
      ? ['  none (hanzo-dev config set "permissions.exec(npm test*)" allow adds one)']
      : permissionRules.map(({file, mode, pattern}) =>
          numbered(`${mode.padEnd(6)}  ${oneLine(pattern).padEnd(patternWidth)}  ${shownFile(file, projectRoot)}`),
        )),
    '',
    USAGE,
  ].join('\n')
}

async function remove(given: string, facts: PermissionsFacts): Promise<string> {
  const session = facts.approvals.list()
  const loaded = await loadSettings({cwd: facts.cwd, env: facts.env})
  const count = session.length + loaded.permissionRules.length
  const index = /^\d+$/.test(given) ? Number(given) - 1 : -1
  if (index < 0 || index >= count)
    throw new UserError(
      count === 0
        ? 'There are no rules to remove: no approvals in this session and no saved rules'
        : `There is no rule ${oneLine(given)}: /permissions numbers them 1 to ${count}`,
    )
  if (index < session.length) {
    const {covers, tool} = facts.approvals.remove(index)!
    return `Removed from this session: ${tool} ${oneLine(covers)}. It is asked about again.`
  }

  return removeSaved(loaded.permissionRules[index - session.length], facts, loaded.projectRoot)
}

async function removeSaved(rule: PermissionRule, facts: PermissionsFacts, projectRoot: string): Promise<string> {
  const result = await editSetting({cwd: facts.cwd, key: `permissions.${rule.pattern}`, tier: rule.tier})
  const pattern = oneLine(rule.pattern)
  const lines = [
    `Removed "${pattern}": ${rule.mode} from ${shownFile(result.file, projectRoot)}. This session keeps the rules it started with; the next one goes without it.`,
  ]
  // A pattern set in another tier too is that tier's rule now.
  const still = (await loadSettings({cwd: facts.cwd, env: facts.env})).permissionRules.find(
    ({pattern: other}) => other === rule.pattern,
  )
  if (still) lines.push(`"${pattern}" is still set (${still.mode}) in ${shownFile(still.file, projectRoot)}.`)
  return lines.join('\n')
}

/** A project's settings file by its path in the project (`.hanzo/settings.local.json`), any other in full. */
function shownFile(file: string, projectRoot: string): string {
  const inProject = relative(projectRoot, file)
  return oneLine(inProject.startsWith('..') || inProject === file ? file : inProject)
}
