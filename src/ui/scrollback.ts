import {printable} from '@hanzo-dev/sdk/terminal-text'

import {wrapPlain} from '../core/markdown/wrap.js'
import type {LiveRegion} from './live-region.js'
import type {TerminalHold} from './terminal-hold.js'

/**
 * What the chat prints for good above the prompt, into the terminal's scrollback. While the
 * terminal is given away (a login's own prompts) nothing is written: the lines wait and come
 * when it is back, and nothing at all once the chat has closed.
 */
export class Scrollback {
  /** Lines printed while the terminal was given away: shown when it is back. */
  private readonly deferred: string[] = []

  constructor(
    private readonly region: LiveRegion,
    private readonly hold: TerminalHold,
    private readonly closed: () => boolean,
    private readonly draw: () => void,
  ) {}

  print(text: string): void {
    if (this.closed()) return
    if (this.hold.suspended) this.deferred.push(text)
    else this.region.commit(text)
  }

  /**
   * Plain words, wrapped between words at the terminal's width (the terminal would cut them
   * anywhere), each row painted. Through the printer: the words are often a plugin's, a server's
   * or a file's (a slash command's answer, an error, a warning).
   */
  say(text: string, paint: (row: string) => string): void {
    const {width} = this.region
    this.print(
      printable(text)
        .split('\n')
        .flatMap((line) => wrapPlain(line, width).map((row) => paint(row)))
        .join('\n'),
    )
  }

  /** Gives the terminal to `work`, the prompt erased meanwhile and drawn again after. */
  suspend<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed()) return work()
    return this.hold.suspend(
      work,
      () => this.region.draw([]),
      () => {
        // What was said meanwhile (a warning) comes now, above the prompt.
        for (const text of this.deferred.splice(0)) this.region.commit(text)
        this.draw()
      },
    )
  }
}
