const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const FRAME_MS = 100

/** The live region's spinner line while the model thinks, a tool runs or the session opens: it turns, and says Esc stops it. */
export class BusyLine {
  /** The line to draw, while busy. */
  text?: string
  private timer?: NodeJS.Timeout
  private frame = 0

  constructor(private readonly redraw: () => void) {}

  start(label: string): void {
    clearInterval(this.timer)
    const paint = () => {
      this.text = `${FRAMES[this.frame % FRAMES.length]} ${label}… (Esc to interrupt)`
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
}
