import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {commonPrefix} from '../core/input/mentions.js'
import type {PromptWidget} from './prompt-widget.js'
import type {MenuCommand} from './slash-menu.js'

/** A server slow to complete must not hold the prompt. */
const COMPLETE_TIMEOUT_MS = 5000

/**
 * Tab at the end of a slash command's arguments, for a command that completes them (an MCP
 * prompt's, through `completion/complete`): the last argument becomes what the values share, a
 * single value is taken whole. Undefined when the prompt is no such command; else what to tell the user.
 */
export async function completeArgument(
  widget: PromptWidget,
  commands: readonly MenuCommand[],
): Promise<{notice?: string} | undefined> {
  if (widget.cursor !== widget.text.length) return undefined
  const match = /^\/(\S+)\s+([\s\S]*)$/.exec(widget.text)
  const command = match && commands.find((c) => c.name === match[1])
  if (!match || !command?.complete) return undefined
  const last = /\S*$/.exec(match[2])![0]
  const values = await command.complete(match[2], AbortSignal.timeout(COMPLETE_TIMEOUT_MS)).catch(() => [])
  if (values.length === 0) return {notice: `Nothing completes ${oneLine(last) || 'this argument'}`}
  const completion = values.length === 1 ? `${values[0]} ` : commonPrefix(values)
  if (completion.length >= last.length) widget.replace(widget.text.length - last.length, widget.cursor, completion)
  return {notice: values.length > 1 ? values.map((v) => oneLine(v)).join('  ') : undefined}
}
