import stringWidth from 'string-width'

/** Where the live region draws: a terminal's output stream. */
export interface TerminalOutput {
  write(text: string): unknown
  columns?: number
  rows?: number
}

/** The cursor's place in the region's lines: a line index and a column in that line's text. */
export interface RegionCursor {
  line: number
  column: number
}

const ESC = '\u001B['
/** CSI sequences (colours) and OSC-8 hyperlinks: drawn, but no columns wide. */
// eslint-disable-next-line no-control-regex
const ESCAPES = /(\u001B\[[0-9;?]*[A-Za-z]|\u001B\]8;[^\u0007\u001B]*(?:\u0007|\u001B\\))/

/** What a drawing left on screen: the terminal's width then, each row's columns, the cursor's column. */
interface Drawn {
  width: number
  rowColumns: readonly number[]
  cursorColumn: number
}

const NOTHING_DRAWN: Drawn = {cursorColumn: 0, rowColumns: [], width: 0}

/**
 * The bottom of the screen that is redrawn: the prompt, the status line, a question, the line a
 * reply is still writing. Everything above it is committed once and left alone, in the terminal's
 * own scrollback (finished output is never redrawn, as in Codex and Gemini CLI). Lines are
 * wrapped here to the terminal's width, so the region always knows how many rows it covers.
 */
export class LiveRegion {
  private rows = 0
  private cursorRow = 0
  private lines: string[] = []
  private cursor?: RegionCursor
  /** What the last drawing left on screen, as the next erase must find it after a resize. */
  private drawn = NOTHING_DRAWN

  constructor(private readonly out: TerminalOutput) {}

  /** Draws `lines` in place of what the region showed; the terminal cursor goes to `cursor`. */
  draw(lines: string[], cursor?: RegionCursor): void {
    this.lines = lines
    this.cursor = cursor
    this.out.write(`${ESC}?2026h${ESC}?25l${this.erase()}${this.paint()}${ESC}?2026l`)
  }

  /** Writes `text` above the region, for good, then draws the region again below it. */
  commit(text: string): void {
    if (text === '') return
    const body = text.endsWith('\n') ? text : `${text}\n`
    this.out.write(
      `${ESC}?2026h${ESC}?25l${this.erase()}${body.replaceAll(/\r?\n/g, '\r\n')}${this.paint()}${ESC}?2026l`,
    )
  }

  /** Takes the region off the screen, the cursor shown where it began; nothing is written when nothing is drawn. */
  clear(): void {
    if (this.rows === 0) return
    this.lines = []
    this.cursor = undefined
    this.out.write(`${ESC}?2026h${this.erase()}${ESC}?25h${ESC}?2026l`)
    this.forget()
  }

  /** Leaves the region's last drawing on screen and the cursor below it (the session ends). */
  release(): void {
    const below = this.onScreen(this.rows) - 1 - this.rowsAboveCursor()
    this.out.write(`${below > 0 ? `${ESC}${below}B` : ''}\r\n${ESC}?25h`)
    this.forget()
  }

  /** The cursor is where the next drawing starts, with nothing of the region on screen. */
  private forget(): void {
    this.rows = 0
    this.cursorRow = 0
    this.drawn = NOTHING_DRAWN
  }

  private erase(): string {
    const above = this.rowsAboveCursor()
    return `${above > 0 ? `${ESC}${above}A` : ''}\r${ESC}J`
  }

  /**
   * The screen rows between the region's top and the cursor. After the terminal narrowed, it has
   * reflowed the drawing (tmux, VTE, iTerm, kitty, Windows Terminal do): a row wider than the new
   * width takes several, and an erase that counted the rows as drawn would leave the top ones on
   * screen (a question resized was shown twice). Rows never join when it widens: each ended in a newline.
   */
  private rowsAboveCursor(): number {
    return this.onScreen(this.cursorRow) + Math.floor(this.drawn.cursorColumn / this.reflowWidth())
  }

  /** The screen rows the first `count` drawn rows take now. */
  private onScreen(count: number): number {
    const now = this.reflowWidth()
    return this.drawn.rowColumns
      .slice(0, count)
      .reduce((rows, columns) => rows + Math.max(1, Math.ceil(columns / now)), 0)
  }

  /** The width the drawing is reflowed to: the terminal's now, when it narrowed (a wider one does not rejoin rows). */
  private reflowWidth(): number {
    return Math.min(this.width, this.drawn.width || this.width)
  }

  /** The terminal's width in columns, as the region wraps its lines. */
  get width(): number {
    return Math.max(10, this.out.columns ?? 80)
  }

  private paint(): string {
    const {width} = this
    let rows: string[] = []
    let cursorRow = 0
    let cursorColumn = 0
    for (const [index, line] of this.lines.entries()) {
      const wrapped = wrapLine(line, width)
      if (this.cursor?.line === index) {
        const at = cursorAt(line, wrapped, this.cursor.column, width)
        cursorRow = rows.length + at.row
        cursorColumn = at.column
      }

      rows.push(...wrapped.map((w) => w.text))
    }

    if (!this.cursor) cursorRow = Math.max(0, rows.length - 1)
    // Taller than the terminal, the top rows would scroll out of reach of the next erase and stay
    // in the scrollback, once per redraw: only the bottom rows are drawn, the cursor's row among
    // them. One row is left above, since an erase from the screen's top-left corner is a clear
    // screen that tmux (scroll-on-clear) keeps in its history.
    const height = this.out.rows && Math.max(1, this.out.rows - 1)
    if (height && rows.length > height) {
      const first = Math.min(rows.length - height, cursorRow)
      rows = rows.slice(first, first + height)
      cursorRow -= first
    }

    this.rows = rows.length
    this.cursorRow = cursorRow
    this.drawn = {cursorColumn, rowColumns: rows.map((row) => plainColumns(row)), width}
    const up = rows.length - 1 - cursorRow
    const move = `${up > 0 ? `${ESC}${up}A` : ''}\r${cursorColumn > 0 ? `${ESC}${cursorColumn}C` : ''}`
    return `${rows.join('\r\n')}${move}${this.cursor ? `${ESC}?25h` : ''}`
  }
}

interface WrappedRow {
  text: string
  /** The offset in the line's plain text where this row starts. */
  start: number
}

/** Made when first needed: creating it costs milliseconds of start-up, and most text never needs it. */
let graphemes: Intl.Segmenter | undefined
const JOINERS = new Set(['\u200D', '\uFE0E', '\uFE0F'])
/** Printable ASCII: one column a character, and no character joins the next (most text; measured fast). */
const PLAIN = /^[\u0020-\u007E]*$/
/** What joins code points into one grapheme: combining marks, joiners and variation selectors, flags' regional indicators, skin tones, keycaps. */
const JOINING = /\p{M}|\u200D|\uFE0E|\uFE0F|\u20E3|[\u{1F1E6}-\u{1F1FF}]|[\u{1F3FB}-\u{1F3FF}]/u

/** The graphemes of `text`: its code points when none of them joins another, skipping the slower segmenter. */
function graphemesOf(text: string): Iterable<string> {
  if (PLAIN.test(text) || !JOINING.test(text)) return text
  graphemes ??= new Intl.Segmenter()
  return Array.from(graphemes.segment(text), (s) => s.segment)
}

/**
 * The columns of one grapheme at column `used`; a tab reaches the next stop of 8 and is drawn as
 * that many spaces, since a terminal would move the cursor without wrapping. Terminals differ on
 * an emoji of several code points (tmux 3.3 joins ZWJ parts and flags but draws a skin tone apart;
 * others join all, or none): the widest reading counts, since a row counted too wide only wraps
 * early, while one counted too narrow is wrapped again by the terminal and the region loses count.
 */
function columnsAt(grapheme: string, used: number): number {
  if (PLAIN.test(grapheme)) return grapheme.length
  if (grapheme === '\t') return 8 - (used % 8)
  let apart = 0
  for (const ch of grapheme) apart += JOINERS.has(ch) ? 0 : stringWidth(ch)
  return Math.max(stringWidth(grapheme), apart)
}

/** The columns `row` (one wrapped row, styled) covers on screen. */
function plainColumns(row: string): number {
  let used = 0
  for (const part of row.split(ESCAPES)) {
    if (part.startsWith('\u001B')) continue
    for (const segment of graphemesOf(part)) used += columnsAt(segment, used)
  }

  return used
}

/** `text` (plain) on one row of `width` columns: cut, with an ellipsis, where it would wrap. */
export function fitRow(text: string, width: number): string {
  if (wrapLine(text, width).length <= 1) return text
  return `${wrapLine(text, width - 1)[0].text}…`
}

/** `line` cut into rows of at most `width` columns; ANSI styling is kept and not counted. */
export function wrapLine(line: string, width: number): WrappedRow[] {
  const rows: WrappedRow[] = []
  let text = ''
  let used = 0
  let start = 0
  let offset = 0
  for (const part of line.split(ESCAPES)) {
    if (part.startsWith('\u001B')) {
      text += part
      continue
    }

    for (const segment of graphemesOf(part)) {
      let w = columnsAt(segment, used)
      if (used + w > width) {
        rows.push({start, text})
        text = ''
        used = 0
        start = offset
        w = columnsAt(segment, 0)
      }

      text += segment === '\t' ? ' '.repeat(w) : segment
      used += w
      offset += segment.length
    }
  }

  rows.push({start, text})
  return rows
}

/** The row and column of the plain-text offset `column` in `line`, wrapped as `rows`. */
function cursorAt(line: string, rows: WrappedRow[], column: number, width: number): {row: number; column: number} {
  let row = rows.length - 1
  while (row > 0 && rows[row].start > column) row--
  const plain = line
    .split(ESCAPES)
    .filter((part) => !part.startsWith('\u001B'))
    .join('')
  let col = 0
  for (const segment of graphemesOf(plain.slice(rows[row].start, column))) col += columnsAt(segment, col)
  // Past a full row's end the terminal has no column left: the cursor stays on its last one.
  return {column: Math.min(col, width - 1), row}
}
