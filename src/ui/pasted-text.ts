/** A paste longer than this many lines (or characters) is shown in the prompt as one placeholder. */
const LONG_LINES = 5
const LONG_CHARS = 1000
const PLACEHOLDER = /\[Pasted text #(\d+) \+\d+ lines?\]/g
const IMAGE_PLACEHOLDER = /\[Image #(\d+)\]/g
const IMAGE_PATH = /\.(png|jpe?g|gif|webp)$/i

/**
 * Bracketed paste (the terminal marks a paste with ESC[200~ ... ESC[201~): the keys between the
 * markers are one piece of text, so its line breaks are newlines in the prompt, not Enter. A long
 * paste goes into the prompt as a placeholder, `[Pasted text #1 +40 lines]`, expanded when the
 * prompt is sent; editing the placeholder away drops the paste, as in Claude Code. A pasted image
 * path (what a terminal pastes for a file dropped on it) becomes `[Image #1]`: the image is
 * attached when the prompt is sent, and the placeholder stays in its text.
 */
export class PastedTexts {
  private collecting?: string
  private readonly texts = new Map<number, string>()
  private readonly images = new Map<number, string>()

  get active(): boolean {
    return this.collecting !== undefined
  }

  start(): void {
    this.collecting = ''
  }

  /** A key's raw bytes while a paste is collected. */
  add(sequence: string): void {
    this.collecting += sequence
  }

  /** The paste ended: what goes into the prompt (the text, or the placeholder of a long one). */
  end(): string {
    // Terminals send a line break as CR. Anything else is kept as pasted: the prompt shows it through the printer.
    const text = (this.collecting ?? '').replaceAll('\r\n', '\n').replaceAll('\r', '\n')
    this.collecting = undefined
    const image = imagePath(text)
    if (image !== undefined) {
      const id = this.images.size + 1
      this.images.set(id, image)
      return `[Image #${id}]`
    }

    const lines = text.split('\n').length
    if (lines <= LONG_LINES && text.length <= LONG_CHARS) return text
    const id = this.texts.size + 1
    this.texts.set(id, text)
    return `[Pasted text #${id} +${lines} lines]`
  }

  /** The prompt with each placeholder still in it replaced by its paste. */
  expand(prompt: string): string {
    return prompt.replaceAll(PLACEHOLDER, (placeholder, id: string) => this.texts.get(Number(id)) ?? placeholder)
  }

  /** The pasted images whose placeholder is still in the prompt, in order. */
  imagesIn(prompt: string): Array<{label: string; path: string}> {
    return [...prompt.matchAll(IMAGE_PLACEHOLDER)].flatMap(([label, id]) => {
      const path = this.images.get(Number(id))
      return path === undefined ? [] : [{label, path}]
    })
  }
}

/**
 * The path a paste is, when it is one image file's: quoted, or with a dropped file's spaces
 * escaped (`my\ shot.png`); text with a bare space (`look at a.png`) is text.
 */
function imagePath(text: string): string | undefined {
  const trimmed = text.trim()
  const quoted = /^(['"])([^\n]+)\1$/.exec(trimmed)
  if (!quoted && /(^|[^\\])\s/.test(trimmed)) return undefined
  const path = quoted ? quoted[2] : trimmed.replaceAll(/\\(.)/g, '$1')
  return IMAGE_PATH.test(path) ? path : undefined
}
