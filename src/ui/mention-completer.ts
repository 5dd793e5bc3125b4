import type {MentionCandidate} from '@hanzo-dev/sdk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {commonPrefix, completePath, mentionAt} from '../core/input/mentions.js'
import type {PromptWidget} from './prompt-widget.js'

/** What the plugins offer for a mention besides files (an MCP server's `server:uri` resources). */
export type OtherMentions = (prefix: string, signal: AbortSignal) => Promise<MentionCandidate[]>

/** A plugin slow to answer must not hold the prompt. */
const OTHERS_TIMEOUT_MS = 5000
/** Candidates the notice lists at most. */
const SHOWN = 20

/**
 * Tab inside an `@` mention: completes the path as far as the candidates agree, files and what
 * the plugins offer alike. The project's files are listed on the first Tab; the file walker is
 * loaded then, not at start-up.
 */
export class MentionCompleter {
  private files?: Promise<string[]>

  constructor(
    private readonly cwd: string,
    private readonly others?: OtherMentions,
  ) {}

  /** Undefined when the cursor is not in a mention; else what to tell the user (the candidates when they differ). */
  async complete(widget: PromptWidget): Promise<{notice?: string} | undefined> {
    const mention = mentionAt(widget.text, widget.cursor)
    if (!mention) return undefined
    this.files ??= import('./prompt-attachments.js')
      .then(({projectFiles}) => projectFiles(this.cwd, new AbortController().signal))
      .catch(() => [])
    const [files, others] = await Promise.all([
      this.files,
      this.others?.(mention.prefix, AbortSignal.timeout(OTHERS_TIMEOUT_MS)).catch(() => []) ?? [],
    ])
    const found = completePath(mention.prefix, files)
    // A server's values are its own words: one line each, escapes neutralized.
    const offered = others.map(({label, value}) => ({label: label && oneLine(label), value: oneLine(value)}))
    const values = [...offered.map((c) => c.value), ...(found ? [found.completion] : [])]
    if (values.length === 0) return {notice: `No file matches @${oneLine(mention.prefix)}`}
    widget.replace(mention.start + 1, widget.cursor, commonPrefix(values))
    const candidates = [
      ...offered.map(({label, value}) => (label ? `${value} (${label})` : value)),
      ...(found?.candidates ?? []),
    ]
    return {notice: candidates.length > 1 ? candidates.slice(0, SHOWN).join('  ') : undefined}
  }
}
