import type {ElicitationAnswer, ElicitationRequest, ElicitationValue} from '@hanzo-dev/sdk'
import {oneLine, printable} from '@hanzo-dev/sdk/terminal-text'
import type {ChalkInstance} from 'chalk'

import {type FormField, formFields, parseAnswer} from './elicitation-fields.js'
import type {PromptHistory} from './prompt-history.js'
import {PromptWidget} from './prompt-widget.js'

/** What a form needs of the chat around it. */
export interface FormHost {
  style: ChalkInstance
  history: PromptHistory
  /** The form is about to show: the spinner stops, the reply's pending text is committed. */
  opening(): void
  print(text: string): void
  draw(): void
  /** The answer is in: the turn (whose tool call the server is answering) goes on. */
  answered(): void
  /** Opens a URL-mode request's page; false when no browser could be started. */
  openBrowser(url: string): Promise<boolean>
}

interface Pending {
  request: ElicitationRequest
  resolve(answer: ElicitationAnswer): void
  fields: FormField[]
  /** The field being typed; undefined before the user chose to fill the form in. */
  index?: number
  content: Record<string, ElicitationValue>
  widget?: PromptWidget
  error?: string
}

/**
 * An MCP server's questions in the chat (elicitation), above the prompt as a permission
 * question is: the server's words through the printer, then Enter fills in the form field by
 * field (each checked against its schema before the next; empty takes the default), d declines,
 * Esc cancels. A URL request opens its page in the browser only once the user says so. One at a time.
 */
export class ElicitationForms {
  private pending?: Pending
  private queue: Promise<unknown> = Promise.resolve()

  constructor(private readonly host: FormHost) {}

  get active(): boolean {
    return this.pending !== undefined
  }

  /** The prompt a field's answer is typed in, while it is. */
  get widget(): PromptWidget | undefined {
    return this.pending?.widget
  }

  get lines(): string[] {
    const {pending} = this
    if (!pending) return []
    const {style} = this.host
    const {request} = pending
    if (pending.index === undefined) {
      const first =
        request.mode === 'url'
          ? `${style.bold('o')} open ${oneLine(request.url)} in your browser`
          : `${style.bold('Enter')} fill in the form (${pending.fields.length} field(s))`
      return [`  ${first}   ${style.bold('d')} decline   ${style.dim('Esc: cancel')}`]
    }

    const field = pending.fields[pending.index]
    const lines = [
      `  ${style.bold(oneLine(field.title))}${field.required ? style.red('*') : ''} ${style.dim(hint(field))}`,
    ]
    if (field.description) lines.push(`  ${style.dim(oneLine(field.description))}`)
    for (const [i, option] of field.options.entries()) lines.push(`    ${i + 1}) ${oneLine(option.title)}`)
    if (pending.error) lines.push(`  ${style.red(oneLine(pending.error))}`)
    lines.push(style.dim('  Enter: next field   Esc: cancel the form'))
    return lines
  }

  ask(request: ElicitationRequest): Promise<ElicitationAnswer> {
    const asked = this.queue.then(
      () =>
        new Promise<ElicitationAnswer>((resolve) => {
          this.host.opening()
          const text = printable(request.message).trim()
          this.host.print(this.host.style.bold(`MCP server ${oneLine(request.server)} asks: `) + text)
          const fields = request.mode === 'form' ? formFields(request.requestedSchema) : []
          this.pending = {content: {}, fields, request, resolve}
          // The server withdrew its question (notifications/cancelled): the form closes, its answer would go nowhere.
          if (request.signal?.aborted) return this.settle({action: 'cancel'}, 'withdrawn by the server')
          request.signal?.addEventListener(
            'abort',
            () => {
              if (this.pending?.request === request) this.settle({action: 'cancel'}, 'withdrawn by the server')
            },
            {once: true},
          )
          this.host.draw()
        }),
    )
    this.queue = asked.catch(() => undefined)
    return asked
  }

  /** A key while a form is open. */
  answer(key: string): void {
    const pending = this.pending!
    if (key === '<Esc>' || key === '<C-c>') return this.settle({action: 'cancel'}, 'cancelled')
    if (pending.index === undefined) return this.choose(pending, key)
    if (key !== '<CR>') {
      pending.widget!.key(key)
      return this.host.draw()
    }

    const field = pending.fields[pending.index]
    const parsed = parseAnswer(field, pending.widget!.text)
    if (typeof parsed === 'object' && 'error' in parsed) {
      pending.error = parsed.error
      return this.host.draw()
    }

    if (parsed !== 'skip') pending.content[field.name] = parsed.value
    this.host.print(
      this.host.style.dim(`  ${oneLine(field.title)}: ${parsed === 'skip' ? '(none)' : oneLine(String(parsed.value))}`),
    )
    this.next(pending, pending.index + 1)
  }

  private choose(pending: Pending, key: string): void {
    if (key === 'd') return this.settle({action: 'decline'}, 'declined')
    const {request} = pending
    if (request.mode === 'url' && key === 'o') {
      if (!/^https?:\/\//i.test(request.url)) return this.settle({action: 'decline'}, 'declined: not a web address')
      void this.host.openBrowser(request.url).then((opened) => {
        this.settle(
          {action: 'accept'},
          opened ? 'opened in your browser' : `no browser could be started: open ${oneLine(request.url)}`,
        )
      })
      return
    }

    if (request.mode === 'form' && key === '<CR>') this.next(pending, 0)
  }

  private next(pending: Pending, index: number): void {
    if (index >= pending.fields.length) return this.settle({action: 'accept', content: pending.content}, 'sent')
    pending.index = index
    pending.error = undefined
    pending.widget = new PromptWidget('default', this.host.history)
    this.host.draw()
  }

  private settle(answer: ElicitationAnswer, said: string): void {
    const pending = this.pending
    if (!pending) return
    this.host.print(this.host.style.dim(`  ${said}`))
    this.pending = undefined
    pending.resolve(answer)
    this.host.answered()
  }
}

/** What a field takes, in a few words: its type and bounds, its default. */
function hint(field: FormField): string {
  const {schema} = field
  const range =
    typeof schema.minimum === 'number' || typeof schema.maximum === 'number'
      ? ` ${String(schema.minimum ?? '')}-${String(schema.maximum ?? '')}`
      : ''
  const kind =
    field.kind === 'enum'
      ? 'a number or value'
      : field.kind === 'multi'
        ? 'numbers, separated by commas'
        : field.kind === 'boolean'
          ? 'y/n'
          : `${field.kind}${typeof schema.format === 'string' ? `, ${schema.format}` : ''}${range}`
  const fallback = field.default === undefined ? '' : `; empty: ${oneLine(JSON.stringify(field.default))}`
  return `(${kind}${fallback})`
}
