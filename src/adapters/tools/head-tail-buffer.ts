/**
 * Collects a stream's bytes in bounded memory: the first `headLimit` bytes and the last
 * `tailLimit` bytes are kept, what falls in between is only counted. The start of a command's
 * output says what it did and the end how it ended; the middle is what can go.
 */
export class HeadTailBuffer {
  private readonly head: Buffer[] = []
  private headBytes = 0
  private readonly tail: Buffer[] = []
  private tailBytes = 0
  private totalBytes = 0

  constructor(
    private readonly headLimit: number,
    private readonly tailLimit: number,
  ) {}

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length
    let rest = chunk
    if (this.headBytes < this.headLimit) {
      const taken = rest.subarray(0, this.headLimit - this.headBytes)
      this.head.push(taken)
      this.headBytes += taken.length
      rest = rest.subarray(taken.length)
    }

    if (rest.length === 0) return
    this.tail.push(rest)
    this.tailBytes += rest.length
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.tailLimit)
      this.tailBytes -= this.tail.shift()?.length ?? 0
    const excess = this.tailBytes - this.tailLimit
    if (excess > 0) {
      this.tail[0] = this.tail[0].subarray(excess)
      this.tailBytes = this.tailLimit
    }
  }

  /** Bytes seen, kept or not. */
  get size(): number {
    return this.totalBytes
  }

  /** Bytes seen but not kept. */
  get droppedBytes(): number {
    return this.totalBytes - this.headBytes - this.tailBytes
  }

  /** The kept text, UTF-8, with a marker saying how much was cut where the middle was. */
  toString(): string {
    if (this.droppedBytes === 0) return Buffer.concat([...this.head, ...this.tail]).toString('utf8')
    const head = Buffer.concat(this.head).toString('utf8')
    const tail = Buffer.concat(this.tail).toString('utf8')
    return `${head}\n[… ${this.droppedBytes} bytes cut from the middle …]\n${tail}`
  }
}
