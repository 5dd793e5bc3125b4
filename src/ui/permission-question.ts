import {stripVTControlCharacters} from 'node:util'

import type {PermissionDecision, Prompter} from '@hanzo-dev/sdk'
import type {ChalkInstance} from 'chalk'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import type {PromptHistory} from './prompt-history.js'
import {PromptWidget} from './prompt-widget.js'

/** What a question needs of the chat around it. */
export interface QuestionHost {
  style: ChalkInstance
  history: PromptHistory
  /** Whether the running turn was interrupted: a question that comes after is denied unasked. */
  interrupted(): boolean
  /** The question is about to show: the spinner stops, the reply's pending text is committed. */
  opening(): void
  print(text: string): void
  draw(): void
  /** The terminal's width: the answer keys go on as many rows as they need. */
  width(): number
  /** The answer is in (`allow` or `deny`); after Esc the turn is interrupted too. */
  answered(decision: PermissionDecision, interrupt: boolean): void
}

type Pending =
  | {kind: 'choice'; resolve(decision: PermissionDecision): void}
  | {kind: 'reason'; resolve(decision: PermissionDecision): void; widget: PromptWidget}

/**
 * The chat's permission questions, asked in place above the prompt with the diff of an edit and
 * answered with one key: y once, a for the session (the key says what that allows: `ls *`, this
 * exact command, the file), n to deny with a reason (typed in a prompt of its own), Esc to deny
 * and interrupt. One at a time: parallel tool calls wait their turn.
 */
export class PermissionQuestions {
  private pending?: Pending
  private queue: Promise<unknown> = Promise.resolve()
  private question?: string
  /** What `a` allows, as the gate said it (`` `ls *` ``); it may quote the model's command or path. */
  private sessionScope = 'this call'

  constructor(private readonly host: QuestionHost) {}

  /** The question's lines, for the screen: the question, then the keys, packed into rows that fit the width. */
  get lines(): string[] {
    if (this.question === undefined) return []
    const {style} = this.host
    const keys = [
      `${style.bold('y')} allow once`,
      `${style.bold('a')} allow ${this.sessionScope} for this session`,
      `${style.bold('n')} deny (with a reason)`,
      style.dim('Esc: deny'),
    ]
    const rows: string[] = []
    for (const key of keys) {
      const row = rows.at(-1)
      if (row !== undefined && stripVTControlCharacters(`${row}   ${key}`).length <= this.host.width())
        rows[rows.length - 1] = `${row}   ${key}`
      else rows.push(`  ${key}`)
    }

    return [this.question, ...rows]
  }

  get active(): boolean {
    return this.pending !== undefined
  }

  /** The prompt the reason for a denial is typed in, while it is. */
  get reasonWidget(): PromptWidget | undefined {
    return this.pending?.kind === 'reason' ? this.pending.widget : undefined
  }

  ask(
    tool: string,
    input: Record<string, unknown>,
    context?: Parameters<Prompter['requestPermission']>[2],
  ): Promise<PermissionDecision> {
    const {host} = this
    const asked = this.queue.then(async () => {
      if (host.interrupted()) return {reason: 'the user interrupted the turn', type: 'deny'} as const
      // Loaded at the first question: the diff is not worth a slower start.
      const {changePreview, permissionQuestion} = await import('../adapters/prompt/change-preview.js')
      const preview = changePreview((await context?.preview?.()) ?? [], host.style, host.width())
      host.opening()
      if (preview.length > 0) host.print(preview.join('\n'))
      return new Promise<PermissionDecision>((resolve) => {
        this.question = host.style.bold(permissionQuestion(tool, input, context?.title))
        this.sessionScope = oneLine(context?.sessionScope ?? 'this call')
        this.pending = {kind: 'choice', resolve}
        host.draw()
      })
    })
    this.queue = asked.catch(() => undefined)
    return asked
  }

  /** A key while a question is open. */
  answer(key: string): void {
    const pending = this.pending!
    if (pending.kind === 'reason') {
      if (key === '<CR>' || key === '<Esc>') {
        const why = pending.widget.text.trim()
        return this.settle(
          pending,
          {reason: why ? `the user denied it: ${why}` : 'the user denied it', type: 'deny'},
          'denied',
        )
      }

      pending.widget.key(key)
      return this.host.draw()
    }

    if (key === 'y' || key === '<CR>') return this.settle(pending, {scope: 'once', type: 'allow'}, 'allowed once')
    if (key === 'a')
      return this.settle(pending, {scope: 'session', type: 'allow'}, `allowed ${this.sessionScope} for this session`)
    if (key === '<Esc>' || key === '<C-c>')
      return this.settle(pending, {reason: 'the user interrupted the turn', type: 'deny'}, 'denied', true)
    if (key === 'n') {
      this.pending = {kind: 'reason', resolve: pending.resolve, widget: new PromptWidget('default', this.host.history)}
      this.host.draw()
    }
  }

  private settle(pending: Pending, decision: PermissionDecision, said: string, interrupt = false): void {
    this.host.print(this.host.style.dim(`  ${said}`))
    this.pending = undefined
    this.question = undefined
    pending.resolve(decision)
    this.host.answered(decision, interrupt)
  }
}
