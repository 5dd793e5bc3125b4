import {VimInput, withBuffer} from '../core/input/index.js'
import {lineEnd, lineStart} from '../core/input/text.js'
import type {PromptHistory} from './prompt-history.js'

export type InputMode = 'vim' | 'emacs' | 'default'

/** What a key did to the prompt, for the session to act on. */
export type PromptEffect =
  | {kind: 'submit'; text: string}
  | {kind: 'exit'}
  | {kind: 'message'; message: string}
  | {kind: 'changed'}
  | {kind: 'none'}

/**
 * The input line: multi-line text with a cursor. Both modes run on the vim state machine: the
 * default mode is its Insert mode, kept there (Esc belongs to the session: it interrupts), so
 * every editing key means the same in both. `\` then Enter, Alt+Enter and Ctrl-J add a line;
 * Up and Down walk the history from the first and last lines.
 */
export class PromptWidget {
  private vim: VimInput
  private browsing?: {index: number; draft: string}

  constructor(
    private mode: InputMode,
    private readonly history: PromptHistory,
    private readonly clock: () => number = Date.now,
  ) {
    this.vim = this.fresh('')
  }

  get text(): string {
    return this.vim.state.buffer
  }

  get cursor(): number {
    return this.vim.state.cursor
  }

  get inputMode(): InputMode {
    return this.mode
  }

  /** Vim's mode, for the status line (`-- INSERT --`); undefined outside vim mode. */
  get vimMode(): string | undefined {
    return this.mode === 'vim' ? this.vim.state.mode : undefined
  }

  /** The `:` command being typed in vim's Command mode. */
  get commandLine(): string | undefined {
    const {state} = this.vim
    return state.mode === 'command' ? `:${state.commandLine}` : undefined
  }

  setMode(mode: InputMode): void {
    const {buffer} = this.vim.state
    this.mode = mode
    this.vim = this.fresh(buffer)
  }

  clear(): void {
    this.browsing = undefined
    this.vim = this.fresh('')
  }

  key(key: string): PromptEffect {
    const {state} = this.vim
    if ((key === '<Up>' || key === '<Down>') && (state.mode === 'insert' || state.mode === 'normal')) {
      const atEdge =
        key === '<Up>'
          ? lineStart(state.buffer, state.cursor) === 0
          : lineEnd(state.buffer, state.cursor) === state.buffer.length
      if (atEdge) return this.walk(key === '<Up>' ? -1 : 1)
    }

    // A line ending in `\` continues on the next: the `\` becomes the newline.
    if (key === '<CR>' && state.mode === 'insert' && state.buffer[state.cursor - 1] === '\\') {
      this.vim.state = withBuffer(
        state,
        `${state.buffer.slice(0, state.cursor - 1)}\n${state.buffer.slice(state.cursor)}`,
        state.cursor,
      )
      return {kind: 'changed'}
    }

    if (this.mode !== 'vim' && key === '<Esc>') return {kind: 'none'}
    const effect = this.vim.key(key)
    // Outside vim mode a key that would leave Insert mode (Ctrl-C) does nothing: the cursor stays where it was.
    if (this.mode !== 'vim' && this.vim.state.mode !== 'insert')
      this.vim = this.fresh(this.vim.state.buffer, state.cursor)
    if (!effect) return {kind: 'changed'}
    if (effect.kind === 'submit') {
      const text = effect.text
      this.clear()
      return {kind: 'submit', text}
    }

    if (effect.kind === 'exit') return {kind: 'exit'}
    return {kind: 'message', message: effect.message}
  }

  /** Whether typing inserts text (vim's Insert mode, or always outside vim mode): Tab completes only then. */
  get inserting(): boolean {
    return this.vim.state.mode === 'insert'
  }

  /** Replaces `text[start, end)` with `replacement`, the cursor after it (a completed path). */
  replace(start: number, end: number, replacement: string): void {
    const {state} = this.vim
    this.vim.state = withBuffer(
      state,
      `${state.buffer.slice(0, start)}${replacement}${state.buffer.slice(end)}`,
      start + replacement.length,
    )
  }

  /** Ends a timed-out pending vim sequence; true when the widget must be drawn again. */
  tick(): boolean {
    return this.mode === 'vim' && this.vim.tick()
  }

  private walk(step: -1 | 1): PromptEffect {
    const entries = this.history.entries()
    const from = this.browsing?.index ?? entries.length
    const index = Math.min(entries.length, Math.max(0, from + step))
    if (index === from) return {kind: 'none'}
    this.browsing ??= {draft: this.text, index: entries.length}
    const text = index === entries.length ? this.browsing.draft : entries[index]
    this.browsing.index = index
    this.vim = this.fresh(text)
    return {kind: 'changed'}
  }

  private fresh(buffer: string, cursor = buffer.length): VimInput {
    return new VimInput(this.clock, {buffer, cursor, mode: 'insert'})
  }
}
