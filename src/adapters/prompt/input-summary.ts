import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {toolSubject} from '../../core/permissions/index.js'

/**
 * One short line saying what a call would do: the command for exec, the path for file tools,
 * the input as JSON for other tools.
 */
export function summarizeToolInput(toolName: string, input: Readonly<Record<string, unknown>>): string {
  const subject = toolSubject(toolName, input)
  return oneLine(subject === undefined ? JSON.stringify(input) : subject.kind === 'command' ? subject.command : subject.path)
}
