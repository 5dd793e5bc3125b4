import {open} from 'node:fs/promises'
import {join} from 'node:path'

import type {InstructionFile} from '../core/agent/system-prompt.js'

/** AGENTS.md is the convention other agents read too; HANZO.md is ours. Both when present. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'HANZO.md'] as const
/**
 * Without either, the file another agent reads, so a project set up for Claude Code or Gemini CLI
 * works unchanged. Only the first found: a project set up for both keeps the same instructions
 * twice (Codex CLI's fallback file names work the same way).
 */
const FALLBACK_INSTRUCTION_FILES = ['CLAUDE.md', 'GEMINI.md'] as const
/** A repository cannot fill the context window through its instructions. */
const MAX_BYTES = 64 * 1024

export async function readProjectInstructions(projectRoot: string): Promise<InstructionFile[]> {
  const files: InstructionFile[] = []
  for (const name of INSTRUCTION_FILES) {
    const text = await readCapped(join(projectRoot, name))
    if (text !== undefined) files.push({name, text})
  }

  if (files.length > 0) return files
  for (const name of FALLBACK_INSTRUCTION_FILES) {
    const text = await readCapped(join(projectRoot, name))
    if (text !== undefined) return [{name, text}]
  }

  return []
}

/** The user's own memory (`#` in the chat adds to it), read into every session's system prompt. */
export const USER_MEMORY_FILE = 'AGENTS.md'

export async function readUserMemory(configDir: string): Promise<string | undefined> {
  return readCapped(join(configDir, USER_MEMORY_FILE))
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
