import type {ChalkInstance} from 'chalk'

import type {BusyLine} from './busy-line.js'
import {ElicitationForms} from './elicitation-form.js'
import {PermissionQuestions} from './permission-question.js'
import type {PromptHistory} from './prompt-history.js'
import type {PromptWidget} from './prompt-widget.js'
import type {TurnView} from './turn-view.js'

/** What the questions need of the chat around them. */
export interface TurnQuestionsHost {
  busy: BusyLine
  view: TurnView
  style: ChalkInstance
  history: PromptHistory
  draw(): void
  print(text: string): void
  width(): number
  /** Whether the running turn was interrupted: a permission question that comes after is denied unasked. */
  interrupted(): boolean
  interrupt(): void
}

/**
 * What a turn asks the user while it runs: a tool's permission, and an MCP server's form
 * (elicitation). Both take over the turn's place in the same way: the spinner stops and the
 * reply's pending text is committed before they show, and the turn goes on once answered.
 */
export class TurnQuestions {
  readonly permissions: PermissionQuestions
  readonly forms: ElicitationForms

  constructor(host: TurnQuestionsHost) {
    const {busy, draw, history, print, style} = host
    const opening = (): void => {
      busy.stop()
      host.view.end()
    }
    this.permissions = new PermissionQuestions({
      answered: (decision, interrupt) => {
        if (interrupt) return host.interrupt()
        busy.start(decision.type === 'allow' ? 'Running' : 'Thinking')
        draw()
      },
      draw,
      history,
      interrupted: host.interrupted,
      opening,
      print,
      style,
      width: host.width,
    })
    this.forms = new ElicitationForms({
      answered: () => {
        busy.start('Running')
        draw()
      },
      draw,
      history,
      opening,
      openBrowser: async (url) => (await import('../adapters/auth/open-browser.js')).openBrowser(url),
      print,
      style,
    })
  }

  /** The open question's lines for the screen; the permission question comes first. */
  get lines(): string[] {
    return [...this.permissions.lines, ...this.forms.lines]
  }

  /** Where typing goes while a question is open, and its label: a denial's reason, or a form's field. */
  get input(): {widget: PromptWidget; label: string} | undefined {
    const reason = this.permissions.reasonWidget
    if (reason) return {label: 'Reason (optional, Enter to send): ', widget: reason}
    const field = this.forms.widget
    return field && {label: 'Answer: ', widget: field}
  }
}
