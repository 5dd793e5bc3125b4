const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const FRAME_MS = 100

/**
 * The spinner line while the model thinks, a tool runs or the session opens: it turns, counts the
 * seconds of this wait (a server that hangs shows a count that goes on, not a frozen line), and
 * says which key stops it (`Esc to interrupt` in the chat, `Ctrl-C to cancel` in `run`).
 */
export class BusyLine {
  /** The line to draw, while busy. */
  text?: string
  private timer?: NodeJS.Timeout
  private frame = 0

  constructor(
    private readonly redraw: () => void,
    private readonly hint = 'Esc to interrupt',
  ) {}

  start(label: string): void {
    clearInterval(this.timer)
    const started = Date.now()
    const paint = () => {
      const seconds = Math.floor((Date.now() - started) / 1000)
      this.text = `${FRAMES[this.frame % FRAMES.length]} ${label}… ${seconds}s (${this.hint})`
    }

    paint()
    this.timer = setInterval(() => {
      this.frame++
      paint()
      this.redraw()
    }, FRAME_MS)
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
    this.text = undefined
  }

  get busy(): boolean {
    return this.timer !== undefined
  }
}
