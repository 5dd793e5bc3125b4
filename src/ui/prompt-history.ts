import {createHash} from 'node:crypto'
import {mkdir, readFile} from 'node:fs/promises'
import {dirname, join} from 'node:path'

import {writeFileAtomic} from '../adapters/atomic-write.js'

const MAX_ENTRIES = 500

/**
 * The prompts typed in one project, oldest first, kept in the data dir (never in the
 * repository): `<data dir>/history/<project hash>.json`. A damaged file is an empty history.
 */
export class PromptHistory {
  private constructor(
    private readonly file: string | undefined,
    private list: string[],
  ) {}

  static async open(dataDir: string, projectRoot: string): Promise<PromptHistory> {
    const file = join(dataDir, 'history', `${createHash('sha256').update(projectRoot).digest('hex').slice(0, 16)}.json`)
    const list = await readFile(file, 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => [])
    return new PromptHistory(
      file,
      Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : [],
    )
  }

  /** A history kept in memory only. */
  static inMemory(entries: string[] = []): PromptHistory {
    return new PromptHistory(undefined, [...entries])
  }

  entries(): readonly string[] {
    return this.list
  }

  /** Adds a prompt (the same as the last one is not added twice) and saves the file. */
  async add(text: string): Promise<void> {
    if (text.trim() === '' || this.list.at(-1) === text) return
    this.list = [...this.list, text].slice(-MAX_ENTRIES)
    if (!this.file) return
    await mkdir(dirname(this.file), {mode: 0o700, recursive: true})
    await writeFileAtomic(this.file, `${JSON.stringify(this.list)}\n`, {mode: 0o600})
  }
}
