import type {ChalkInstance} from 'chalk'

export interface KeyOption<T> {
  /** The key that picks it (one character). */
  key: string
  label: string
  value: T
}

interface Pending {
  title: string
  options: ReadonlyArray<KeyOption<unknown>>
  resolve(value: unknown): void
}

/**
 * A question above the prompt answered with one key (approve a plan, where to save a memory):
 * Esc answers `undefined`. Its words are hanzo-dev's own, but the title may quote the user.
 */
export class KeyChoice {
  private pending?: Pending

  get active(): boolean {
    return this.pending !== undefined
  }

  ask<T>(title: string, options: ReadonlyArray<KeyOption<T>>): Promise<T | undefined> {
    this.pending?.resolve(undefined)
    return new Promise<T | undefined>((resolve) => {
      this.pending = {options, resolve: resolve as (value: unknown) => void, title}
    })
  }

  /** Takes a key while a question is open; false when it is not one of the answers (it is then ignored). */
  answer(notation: string): boolean {
    const pending = this.pending
    if (!pending) return false
    const option = pending.options.find(({key}) => key === notation.toLowerCase())
    if (!option && notation !== '<Esc>' && notation !== '<C-c>') return false
    this.pending = undefined
    pending.resolve(option?.value)
    return true
  }

  lines(style: ChalkInstance): string[] {
    if (!this.pending) return []
    const {options, title} = this.pending
    return [
      style.bold(title),
      ...options.map(({key, label}) => `  ${style.bold(key)}  ${label}`),
      style.dim('  Esc: cancel'),
    ]
  }
}
