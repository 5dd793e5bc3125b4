import stringWidth from 'string-width'

/**
 * The few terminal controls the live region writes, played on a grid as xterm does: text in
 * cells, a grapheme at a time (a wide one, CJK or an emoji joined by ZWJ, takes two as in tmux,
 * and wraps whole when one column is left), autowrap with xterm's pending wrap at the last
 * column, `\r`, `\n`, `\t`, CSI A/B/C/D (cursor moves), J (erase below) and ?25h/l (cursor
 * shown/hidden); colours, OSC-8 links and other modes draw nothing. The screen has no height
 * limit: nothing scrolls off, so what was committed stays in view. Anything else it meets fails
 * the test.
 */
export class Screen {
  row = 0
  column = 0
  cursorVisible = true
  private cells: string[][] = [[]]
  private pendingWrap = false

  constructor(readonly width: number) {}

  /** The rows, each as text with trailing blanks cut; trailing empty rows left out. */
  get lines(): string[] {
    const lines = this.cells.map((row) =>
      Array.from({length: this.width}, (_, i) => row[i] ?? ' ')
        .join('')
        .trimEnd(),
    )
    while (lines.length > 1 && lines.at(-1) === '') lines.pop()
    return lines
  }

  write(data: string): void {
    // eslint-disable-next-line no-control-regex
    const controls = /\u001B\[([0-9;?]*)([A-Za-z])|\u001B\]8;[^\u0007\u001B]*(?:\u0007|\u001B\\)|[\r\n\t]/gy
    let at = 0
    while (at < data.length) {
      controls.lastIndex = at
      const m = controls.exec(data)
      if (m) {
        this.control(m[0], m[1], m[2])
        at = controls.lastIndex
        continue
      }

      // eslint-disable-next-line no-control-regex
      const next = data.slice(at).search(/[\u001B\r\n\t]/)
      const text = next === -1 ? data.slice(at) : data.slice(at, at + next)
      if (text === '') throw new Error(`unknown control at ${JSON.stringify(data.slice(at, at + 10))}`)
      for (const {segment} of new Intl.Segmenter().segment(text)) this.print(segment)
      at += text.length
    }
  }

  private print(ch: string): void {
    const w = stringWidth(ch)
    if (w === 0) return
    if (this.pendingWrap || this.column + w > this.width) this.lineFeed(true)
    const row = this.rowCells()
    row[this.column] = ch
    if (w === 2) row[this.column + 1] = ''
    this.column += w
    this.pendingWrap = this.column === this.width
    if (this.pendingWrap) this.column = this.width - 1
  }

  private control(all: string, params: string | undefined, final: string | undefined): void {
    this.pendingWrap =
      this.pendingWrap && (final === 'm' || all.startsWith('\u001B]') || params?.startsWith('?') === true)
    const n = Math.max(1, Number(params || 1))
    if (all === '\r') this.column = 0
    else if (all === '\n') this.lineFeed(false)
    else if (all === '\t') this.column = Math.min(this.width - 1, (Math.floor(this.column / 8) + 1) * 8)
    else if (final === 'A') this.row = Math.max(0, this.row - n)
    else if (final === 'B') this.row += n
    else if (final === 'C') this.column = Math.min(this.width - 1, this.column + n)
    else if (final === 'D') this.column = Math.max(0, this.column - n)
    else if (final === 'J' && !params) this.eraseBelow()
    else if (params === '?25' && (final === 'h' || final === 'l')) this.cursorVisible = final === 'h'
    else if (final && final !== 'm' && !(params === '?2026' && (final === 'h' || final === 'l')))
      throw new Error(`unexpected control ${JSON.stringify(all)}`)
  }

  private lineFeed(wrap: boolean): void {
    this.row++
    if (wrap) this.column = 0
    this.pendingWrap = false
    this.rowCells()
  }

  private eraseBelow(): void {
    this.rowCells().length = this.column
    this.cells.length = this.row + 1
  }

  private rowCells(): string[] {
    while (this.cells.length <= this.row) this.cells.push([])
    return this.cells[this.row]
  }
}
