/**
 * Reasoning models (DeepSeek-R1, Qwen3 via Ollama) open a reply with `<think>...</think>`.
 * hanzo-agent's rule: that block is left out of the final output and of the history sent next
 * turn, and kept in the raw responses. Only a block at the very start counts (after leading
 * whitespace): `<think>` later in a reply is content, e.g. code that mentions the tag.
 */
const OPEN = '<think>'
const CLOSE = '</think>'

/** The reply without a leading think block (and the whitespace after it). */
export function stripThinkBlock(text: string): string {
  const start = text.length - text.trimStart().length
  if (!text.startsWith(OPEN, start)) return text
  const end = text.indexOf(CLOSE, start + OPEN.length)
  // An unclosed block is all thinking: the model stopped before answering.
  return end === -1 ? '' : text.slice(end + CLOSE.length).trimStart()
}

/**
 * The same rule on a stream of deltas: `push` returns what may be shown now, holding back only
 * while the start of the reply could still be, or is inside, a think block.
 */
export class ThinkBlockFilter {
  private state: 'undecided' | 'thinking' | 'closed' | 'visible' = 'undecided'
  private held = ''

  push(delta: string): string {
    if (this.state === 'visible') return delta
    if (this.state === 'closed') return this.afterClose(delta)
    this.held += delta
    if (this.state === 'undecided') {
      const trimmed = this.held.trimStart()
      if (trimmed.length < OPEN.length && OPEN.startsWith(trimmed)) return ''
      if (!trimmed.startsWith(OPEN)) return this.reveal(this.held)
      this.state = 'thinking'
    }

    const end = this.held.indexOf(CLOSE)
    if (end === -1) return ''
    const rest = this.held.slice(end + CLOSE.length)
    this.held = ''
    this.state = 'closed'
    return this.afterClose(rest)
  }

  /** What is still held when the reply ends: text that only looked like the start of a tag. */
  end(): string {
    return this.state === 'undecided' ? this.reveal(this.held) : ''
  }

  /** The whitespace between the block and the answer may come in later deltas too. */
  private afterClose(delta: string): string {
    const text = delta.trimStart()
    return text === '' ? '' : this.reveal(text)
  }

  private reveal(text: string): string {
    this.state = 'visible'
    this.held = ''
    return text
  }
}
