import type {ChalkInstance} from 'chalk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {fitRow} from './live-region.js'

export interface MenuCommand {
  name: string
  description: string
  argsHint?: string
  complete?(args: string, signal: AbortSignal): Promise<string[]>
}

/** Rows the menu takes at most: the prompt must stay on screen. */
const ROWS = 8
/** A prompt still naming its command: `/`, `/co`, `/compact` (no space yet). */
const TYPING = /^\/([a-z0-9_-]*)$/

/**
 * The command menu under the prompt while a slash command's name is typed: it filters as you
 * type (names that start so first, then names that hold the letters), Up and Down pick, Tab
 * completes the picked name, Enter runs it, Esc closes the menu until the prompt changes.
 */
export class SlashMenu {
  private selected = 0
  private closedFor?: string
  private lastTyped?: string

  constructor(private readonly commands: () => readonly MenuCommand[]) {}

  /** The commands the prompt's text matches; none when the menu is closed. */
  matches(text: string): MenuCommand[] {
    const typed = TYPING.exec(text)?.[1]
    if (typed === undefined || text === this.closedFor) return []
    if (typed !== this.lastTyped) {
      this.lastTyped = typed
      this.selected = 0
    }

    const all = this.commands()
    return [
      ...all.filter(({name}) => name.startsWith(typed)),
      ...all.filter(({name}) => !name.startsWith(typed) && name.includes(typed)),
    ]
  }

  /** The command Enter or Tab would take. */
  picked(text: string): MenuCommand | undefined {
    const matches = this.matches(text)
    return matches[Math.min(this.selected, matches.length - 1)]
  }

  move(text: string, step: 1 | -1): void {
    const count = this.matches(text).length
    if (count > 0) this.selected = (this.selected + step + count) % count
  }

  close(text: string): void {
    this.closedFor = text
  }

  /** The menu's rows, each fitted to the width: the picked one marked. Names and words may be a plugin's: one line each, defused. */
  lines(text: string, style: ChalkInstance, width: number): string[] {
    const matches = this.matches(text)
    if (matches.length === 0) return []
    const selected = Math.min(this.selected, matches.length - 1)
    const first = Math.max(0, Math.min(selected - ROWS + 1, matches.length - ROWS))
    const shown = matches.slice(first, first + ROWS)
    const names = shown.map(({argsHint, name}) => `/${name}${argsHint ? ` ${argsHint}` : ''}`)
    const column = Math.min(24, Math.max(...names.map((name) => name.length)))
    const rows = shown.map(({description}, index) => {
      const row = fitRow(oneLine(`${names[index].padEnd(column)}  ${description}`, Number.POSITIVE_INFINITY), width - 2)
      return first + index === selected ? style.cyan(`› ${row}`) : style.dim(`  ${row}`)
    })
    if (matches.length > ROWS) rows.push(style.dim(`  ${matches.length} commands · ↑↓ to pick · Tab completes`))
    return rows
  }
}
