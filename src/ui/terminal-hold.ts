import {emitKeypressEvents} from 'node:readline'

import type {Keypress} from './keys.js'

export interface ChatTerminal {
  input: NodeJS.ReadStream
  output: NodeJS.WriteStream
}

const BRACKETED_PASTE_ON = '\u001B[?2004h'
const BRACKETED_PASTE_OFF = '\u001B[?2004l'

/**
 * The chat's hold on the terminal: raw keys, bracketed paste (the terminal marks what is pasted,
 * so its line breaks do not send it) and resize events while it is taken; given back at the end,
 * or for a while (`suspend`: a login's own prompts).
 */
export class TerminalHold {
  /** True while {@link suspend} has given the terminal to someone else. */
  suspended = false
  private held = false

  constructor(
    private readonly terminal: ChatTerminal,
    private readonly onKeypress: (text: string | undefined, key: Keypress | undefined) => void,
    private readonly onResize: () => void,
  ) {}

  take(): void {
    const {input, output} = this.terminal
    emitKeypressEvents(input)
    this.listen(true)
    output.on('resize', this.onResize)
    this.held = true
  }

  give(): void {
    const {input, output} = this.terminal
    this.listen(false)
    output.off('resize', this.onResize)
    input.pause()
    this.held = false
  }

  /** Runs `work` with the terminal in its ordinary mode; `erase` clears what the chat drew, `redraw` draws it again after. */
  async suspend<T>(work: () => Promise<T>, erase: () => void, redraw: () => void): Promise<T> {
    if (!this.held || this.suspended) return work()
    this.suspended = true
    this.listen(false)
    erase()
    try {
      return await work()
    } finally {
      this.suspended = false
      this.listen(true)
      redraw()
    }
  }

  private listen(on: boolean): void {
    const {input, output} = this.terminal
    if (on) {
      input.setRawMode(true)
      input.resume()
      input.on('keypress', this.onKeypress)
      output.write(BRACKETED_PASTE_ON)
    } else {
      input.off('keypress', this.onKeypress)
      output.write(BRACKETED_PASTE_OFF)
      input.setRawMode(false)
    }
  }
}
