import {mkdir, readFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'

import {writeFileAtomic} from './atomic-write.js'
import {USER_MEMORY_FILE} from './project-instructions.js'

export interface MemoryFile {
  /** Where `#` notes go, as the user sees it named. */
  label: string
  path: string
}

/** The memory files `#` offers: the project's AGENTS.md (read by every agent in the repository), the user's own. */
export function memoryFiles(projectRoot: string, configDir: string): {project: MemoryFile; user: MemoryFile} {
  return {
    project: {label: 'project memory (AGENTS.md)', path: join(projectRoot, 'AGENTS.md')},
    user: {label: `your memory (${join(configDir, USER_MEMORY_FILE)})`, path: join(configDir, USER_MEMORY_FILE)},
  }
}

/** Adds `note` as a list item at the end of the memory file (created if missing), written atomically. */
export async function addMemoryNote(file: MemoryFile, note: string): Promise<void> {
  const before = await readFile(file.path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return ''
    throw error
  })
  const separator = before === '' || before.endsWith('\n') ? '' : '\n'
  await mkdir(dirname(file.path), {recursive: true})
  await writeFileAtomic(file.path, `${before}${separator}- ${note.replaceAll(/\s*\n\s*/g, ' ')}\n`)
}
