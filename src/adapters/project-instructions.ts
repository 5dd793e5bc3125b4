import {open} from 'node:fs/promises'
import {join} from 'node:path'

import type {InstructionFile} from '../core/agent/system-prompt.js'

/** AGENTS.md is the convention other agents read too; HANZO.md is ours. Both when present. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'HANZO.md'] as const
/** A repository cannot fill the context window through its instructions. */
const MAX_BYTES = 64 * 1024

export async function readProjectInstructions(projectRoot: string): Promise<InstructionFile[]> {
  const files: InstructionFile[] = []
  for (const name of INSTRUCTION_FILES) {
    const text = await readCapped(join(projectRoot, name))
    if (text !== undefined) files.push({name, text})
  }

  return files
}

async function readCapped(path: string): Promise<string | undefined> {
  const handle = await open(path, 'r').catch(() => undefined)
  if (!handle) return undefined
  try {
    if (!(await handle.stat()).isFile()) return undefined
    const buffer = Buffer.alloc(MAX_BYTES)
    const {bytesRead} = await handle.read(buffer, 0, MAX_BYTES, 0)
    const text = buffer.toString('utf8', 0, bytesRead)
    return bytesRead === MAX_BYTES ? `${text}\n[... cut at ${MAX_BYTES / 1024} KB ...]` : text
  } finally {
    await handle.close()
  }
}
