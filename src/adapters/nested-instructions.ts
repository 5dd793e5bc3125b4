import {realpath, stat} from 'node:fs/promises'
import {dirname, resolve} from 'node:path'
import {isInside} from '@hanzo-dev/sdk'
import type {Middleware, ToolResult} from '@hanzo-dev/sdk/tools'

import {directoriesDown, InstructionReader, realRoot} from './project-instructions.js'

/** The kinds of call whose locations say where the model works: a file's directory, or a directory itself. */
const WORKING_KINDS = new Set(['read', 'edit'])

/** All the nested files of a session together: a deep tree of AGENTS.md cannot fill the context. */
export const MAX_NESTED_INSTRUCTION_BYTES = 16 * 1024

/**
 * AGENTS.md (HANZO.md, or the CLAUDE.md fallback, `@` imports included) of the directories below
 * the ones the system prompt read: a file's directory speaks only once the model works there, as
 * in Claude Code and Codex. Appended to the result of the tool call that first reaches under it,
 * once per session, so the system prompt, and the cache of the prefix before it, never change.
 * Only inside the project root, and within {@link MAX_NESTED_INSTRUCTION_BYTES} in all.
 */
export async function nestedInstructions(
  root: string,
  cwd: string,
  warn: (message: string) => void,
): Promise<Middleware> {
  const real = await realRoot(root)
  const reader = new InstructionReader(real, MAX_NESTED_INSTRUCTION_BYTES, warn)
  // The system prompt has them already.
  const visited = new Set(directoriesDown(real, await realRoot(cwd)))

  const instructionsFor = async (dir: string): Promise<string> => {
    if (!isInside(real, dir)) return ''
    const fresh = directoriesDown(real, dir).filter((d) => !visited.has(d))
    // Before any read: a call running beside this one does not add them again.
    for (const d of fresh) visited.add(d)
    const before = reader.files.length
    for (const d of fresh) await reader.readDirectory(d)
    return reader.files
      .slice(before)
      .map((file) => `\n\nInstructions from ${file.name}:\n${file.text}`)
      .join('')
  }

  return {
    name: 'nested-instructions',
    wrap: (next) => async (call, context) => {
      const result = await next(call, context)
      if (result.is_error || !WORKING_KINDS.has(call.kind ?? 'other')) return result
      let text = ''
      for (const {path} of call.locations ?? []) {
        const directory = await workingDirectory(resolve(context.cwd, path))
        if (directory) text += await instructionsFor(directory)
      }

      return withText(result, text)
    },
  }
}

/** The directory a location puts the model in: itself, or a file's; undefined when it does not exist. */
async function workingDirectory(path: string): Promise<string | undefined> {
  const target = await realpath(path).catch(() => undefined)
  if (!target) return undefined
  const info = await stat(target).catch(() => undefined)
  return info?.isDirectory() ? target : dirname(target)
}

function withText(result: ToolResult, text: string): ToolResult {
  return text ? {...result, output: result.output + text} : result
}
