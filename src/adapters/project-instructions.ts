import {open, realpath} from 'node:fs/promises'
import {dirname, join, relative, resolve, sep} from 'node:path'
import {isInside} from '@hanzo-dev/sdk'

import type {InstructionFile} from '../core/agent/system-prompt.js'
import {importedPaths} from './instruction-imports.js'

/** AGENTS.md is the convention other agents read too; HANZO.md is ours. Both when present. */
export const INSTRUCTION_FILES = ['AGENTS.md', 'HANZO.md'] as const
/**
 * Without either, the file another agent reads, so a project set up for Claude Code or Gemini CLI
 * works unchanged. Only the first found: a project set up for both keeps the same instructions
 * twice (Codex CLI's fallback file names work the same way).
 */
const FALLBACK_INSTRUCTION_FILES = ['CLAUDE.md', 'GEMINI.md'] as const
/** A repository cannot fill the context window through its instructions: all files and imports together. */
export const MAX_INSTRUCTION_BYTES = 64 * 1024
/** Claude Code's limit on `@` imports within imports: deeper ones are a mistake or a trap. */
export const MAX_IMPORT_DEPTH = 5

/**
 * The instruction files of every directory from `root` (the repository's root) down to `cwd`,
 * the root's first, so the nearest speaks last; each followed by the files it imports with
 * `@path`. An import must stay inside `root` (after symlinks), is read once, and a cycle or an
 * import deeper than {@link MAX_IMPORT_DEPTH} is refused with a warning. Past
 * {@link MAX_INSTRUCTION_BYTES} in all, the rest is cut.
 */
export async function readProjectInstructions(
  root: string,
  cwd: string,
  warn: (message: string) => void = () => {},
): Promise<InstructionFile[]> {
  const reader = new InstructionReader(await realRoot(root), MAX_INSTRUCTION_BYTES, warn)
  for (const dir of directoriesDown(resolve(root), resolve(cwd))) await reader.readDirectory(dir)
  return reader.files
}

export async function realRoot(root: string): Promise<string> {
  return realpath(root).catch(() => resolve(root))
}

/** The user's own memory (`#` in the chat adds to it), read into every session's system prompt. */
export const USER_MEMORY_FILE = 'AGENTS.md'

export async function readUserMemory(configDir: string): Promise<string | undefined> {
  return (await readCapped(join(configDir, USER_MEMORY_FILE), MAX_INSTRUCTION_BYTES, MAX_INSTRUCTION_BYTES))?.text
}

/** `root`, then each directory down to `cwd`; only `root` when `cwd` is not inside it. */
export function directoriesDown(root: string, cwd: string): string[] {
  if (!isInside(root, cwd)) return [root]
  const dirs = [root]
  for (const part of relative(root, cwd).split(sep).filter(Boolean)) dirs.push(join(dirs.at(-1)!, part))
  return dirs
}

async function firstFile(reader: InstructionReader, dir: string): Promise<string | undefined> {
  for (const name of FALLBACK_INSTRUCTION_FILES) if (await reader.isFile(join(dir, name))) return name
  return undefined
}

/** Reads instruction files and their imports within one budget, each file once. */
export class InstructionReader {
  readonly files: InstructionFile[] = []
  private readonly seen = new Set<string>()
  private left: number

  constructor(
    private readonly root: string,
    private readonly maxBytes: number,
    private readonly warn: (message: string) => void,
  ) {
    this.left = maxBytes
  }

  /** The instruction files of `dir` ({@link INSTRUCTION_FILES}, else the first fallback) and their imports. */
  async readDirectory(dir: string): Promise<void> {
    const found: string[] = []
    for (const name of INSTRUCTION_FILES) if (await this.isFile(join(dir, name))) found.push(name)
    if (found.length === 0) {
      const fallback = await firstFile(this, dir)
      if (fallback) found.push(fallback)
    }

    for (const name of found) await this.read(join(dir, name), [])
  }

  async isFile(path: string): Promise<boolean> {
    const handle = await open(path, 'r').catch(() => undefined)
    if (!handle) return false
    try {
      return (await handle.stat()).isFile()
    } finally {
      await handle.close()
    }
  }

  /** Reads `path` (real, inside the root) and what it imports; `chain` is the files importing it. */
  async read(path: string, chain: readonly string[]): Promise<void> {
    const real = await realpath(path).catch(() => undefined)
    if (!real || this.seen.has(real) || this.left <= 0) return
    this.seen.add(real)
    const read = await readCapped(real, this.left, this.maxBytes)
    if (!read) return
    this.left -= read.bytes
    const name = this.name(real)
    this.files.push({
      name: chain.length > 0 ? `${name}, imported by ${this.name(chain.at(-1)!)}` : name,
      text: read.text,
    })
    for (const imported of importedPaths(read.text)) await this.import(imported, [...chain, real])
  }

  private async import(imported: string, chain: readonly string[]): Promise<void> {
    const from = chain.at(-1)!
    const target = await realpath(resolve(dirname(from), imported)).catch(() => undefined)
    // A mention that is not a file (`@types/node`, `@v1.2`) is text, not an import.
    if (!target || !(await this.isFile(target))) return
    const said = `${this.name(from)} imports @${imported}`
    if (!isInside(this.root, target)) return this.warn(`${said}: refused, it is outside the project (${this.root})`)
    if (chain.includes(target)) return this.warn(`${said}: refused, it imports itself through a cycle`)
    if (chain.length > MAX_IMPORT_DEPTH)
      return this.warn(`${said}: refused, imports nest at most ${MAX_IMPORT_DEPTH} deep`)
    await this.read(target, chain)
  }

  private name(real: string): string {
    return relative(this.root, real).split(sep).join('/') || real
  }
}

/** `maxBytes` of `path`; `budget` is the limit in all the cut's note names. */
async function readCapped(
  path: string,
  maxBytes: number,
  budget: number,
): Promise<{text: string; bytes: number} | undefined> {
  const handle = await open(path, 'r').catch(() => undefined)
  if (!handle) return undefined
  try {
    if (!(await handle.stat()).isFile()) return undefined
    const buffer = Buffer.alloc(maxBytes)
    const {bytesRead} = await handle.read(buffer, 0, maxBytes, 0)
    const text = buffer.toString('utf8', 0, bytesRead)
    const cut = bytesRead === maxBytes && (await handle.read(Buffer.alloc(1), 0, 1, maxBytes)).bytesRead > 0
    return {
      bytes: bytesRead,
      text: cut ? `${text}\n[... cut: instructions are limited to ${budget / 1024} KB in all ...]` : text,
    }
  } finally {
    await handle.close()
  }
}
