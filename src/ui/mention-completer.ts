import {completePath, mentionAt} from '../core/input/mentions.js'
import type {PromptWidget} from './prompt-widget.js'

/**
 * Tab inside an `@` mention: completes the path as far as the candidates agree. The project's
 * files are listed on the first Tab; the file walker is loaded then, not at start-up.
 */
export class MentionCompleter {
  private files?: Promise<string[]>

  constructor(private readonly cwd: string) {}

  /** Undefined when the cursor is not in a mention; else what to tell the user (the candidates when they differ). */
  async complete(widget: PromptWidget): Promise<{notice?: string} | undefined> {
    const mention = mentionAt(widget.text, widget.cursor)
    if (!mention) return undefined
    this.files ??= import('./prompt-attachments.js')
      .then(({projectFiles}) => projectFiles(this.cwd, new AbortController().signal))
      .catch(() => [])
    const found = completePath(mention.prefix, await this.files)
    if (!found) return {notice: `No file matches @${mention.prefix}`}
    widget.replace(mention.start + 1, widget.cursor, found.completion)
    return {notice: found.candidates.length > 1 ? found.candidates.join('  ') : undefined}
  }
}
