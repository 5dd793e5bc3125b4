import {ProtocolError} from './protocol-error.js'

export interface BackoffOptions {
  /** The ceiling of the first delay, in ms (a non-negative safe integer). */
  baseMs: number
  /** No delay exceeds this, in ms (a non-negative safe integer). */
  maxMs: number
  /** A source of uniform numbers in [0, 1); injectable so tests and vectors are deterministic. */
  random?: () => number
}

/**
 * Exponential backoff with full jitter (HIP-301 §15): attempt n waits a whole number of ms drawn
 * uniformly from [0, min(maxMs, baseMs * 2^n)]. The ceiling saturates at maxMs however many
 * attempts pass: never Infinity, never NaN.
 */
export class Backoff {
  private readonly baseMs: number
  private readonly maxMs: number
  private readonly random: () => number
  private attempts = 0

  constructor(options: BackoffOptions) {
    for (const key of ['baseMs', 'maxMs'] as const) {
      const value = options[key]
      if (!Number.isSafeInteger(value) || value < 0) {
        throw new ProtocolError(
          'backoff_invalid_option',
          `Backoff ${key} must be a non-negative whole number of ms, got ${value}`,
        )
      }
    }

    this.baseMs = options.baseMs
    this.maxMs = options.maxMs
    this.random = options.random ?? Math.random
  }

  /** How many delays were handed out since construction or the last reset. */
  get attempt(): number {
    return this.attempts
  }

  /** The largest delay attempt `n` can give. */
  ceiling(n: number = this.attempts): number {
    if (this.baseMs === 0) return 0
    // 2^64 times any base >= 1 is past every safe maxMs, so larger exponents change nothing.
    return Math.min(this.maxMs, this.baseMs * 2 ** Math.min(n, 64))
  }

  /** The delay before the next attempt, in ms. */
  nextDelay(): number {
    const r = this.random()
    if (!(r >= 0 && r < 1)) {
      throw new ProtocolError('backoff_invalid_random', `Backoff random() must return a number in [0, 1), got ${r}`)
    }

    const delay = Math.floor(r * (this.ceiling() + 1))
    if (this.attempts < Number.MAX_SAFE_INTEGER) this.attempts++
    return delay
  }

  /** Starts over from the first attempt, e.g. after a success. */
  reset(): void {
    this.attempts = 0
  }
}
