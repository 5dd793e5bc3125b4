import type {ChalkInstance} from 'chalk'

import type {ElicitationForms} from './elicitation-form.js'
import type {KeyChoice} from './key-choice.js'
import {type Keypress, keyNotations} from './keys.js'
import {completeArgument} from './argument-completer.js'
import {MentionCompleter, type OtherMentions} from './mention-completer.js'
import {PastedTexts} from './pasted-text.js'
import type {PermissionQuestions} from './permission-question.js'
import type {PromptWidget} from './prompt-widget.js'
import {type MenuCommand, SlashMenu} from './slash-menu.js'

/** What the keys act on in the chat around them. */
export interface ChatKeysHost {
  widget: PromptWidget
  questions: PermissionQuestions
  /** An MCP server's form: while a field is typed, every key is the form's. */
  forms: ElicitationForms
  choice: KeyChoice
  /** Whether a turn (or a command) runs: Esc and Ctrl-C interrupt it. */
  running(): boolean
  commands(): readonly MenuCommand[]
  /** What a mention may become besides files (the session's plugins offer it). */
  mentions?: OtherMentions
  isCommand(name: string): boolean
  /** The line under the prompt (undefined: none). */
  notice(text: string | undefined): void
  cycleMode(): void
  interrupt(): void
  exit(): void
  submit(text: string): Promise<void>
  draw(): void
}

/** Ctrl-C pressed twice within this long exits. */
const EXIT_WINDOW_MS = 2000
/** Esc pressed twice within this long on an empty prompt opens `/rewind`. */
const REWIND_WINDOW_MS = 1000

/**
 * The chat's keys: what a keypress does, given what is on screen. A question takes its answer
 * keys; Ctrl-C interrupts, clears or (twice) exits; Shift+Tab cycles the mode; the command menu
 * takes Up, Down, Tab, Enter and Esc while it is open; Tab completes an `@` path; a bracketed
 * paste goes into the prompt whole; every other key edits the prompt.
 */
export class ChatKeys {
  readonly pastes = new PastedTexts()
  readonly menu: SlashMenu
  private readonly mentions: MentionCompleter
  private lastCtrlC = 0
  private lastEsc = 0
  private vimTimer?: NodeJS.Timeout

  constructor(
    private readonly host: ChatKeysHost,
    cwd: string,
  ) {
    this.mentions = new MentionCompleter(cwd, host.mentions)
    this.menu = new SlashMenu(() => host.commands())
  }

  /** The menu's rows under the prompt, while a command's name is typed. */
  menuLines(style: ChalkInstance, width: number): string[] {
    const {widget} = this.host
    return widget.inserting ? this.menu.lines(widget.text, style, width) : []
  }

  /** Synchronous: the keys of one chunk (a paste, Esc and the key after it) must be taken in order. */
  onKeypress(text: string | undefined, key: Keypress | undefined): void {
    const {widget} = this.host
    if (key?.name === 'paste-start') return this.pastes.start()
    if (this.pastes.active) {
      if (key?.name === 'paste-end') {
        widget.replace(widget.cursor, widget.cursor, this.pastes.end())
        this.host.draw()
      } else this.pastes.add(key?.sequence ?? text ?? '')
      return
    }

    for (const notation of keyNotations(text, key, {vim: widget.inputMode === 'vim'})) void this.onKey(notation)
  }

  dispose(): void {
    clearTimeout(this.vimTimer)
  }

  private async onKey(notation: string): Promise<void> {
    const {host} = this
    const {choice, forms, questions, widget} = host
    // A question that appears while a prompt is being typed must not take its letters (the `a` of
    // "also" would allow for the session): they go on into the prompt until it is sent (queued) or cleared.
    const answers = widget.text === '' || notation === '<C-c>' || (notation === '<Esc>' && widget.inputMode !== 'vim')
    if (questions.active && answers) return questions.answer(notation)
    if (forms.active && (answers || forms.widget)) return forms.answer(notation)
    if (choice.active && answers) {
      if (choice.answer(notation)) host.draw()
      return
    }

    if (notation === '<C-c>') return this.ctrlC()
    if (notation === '<S-Tab>') return host.cycleMode()
    if (widget.inserting && this.menuKey(notation)) return host.draw()
    host.notice(
      questions.active ? 'Send your prompt (Enter queues it) or delete it, then answer the question' : undefined,
    )
    if (host.running() && notation === '<Esc>' && (widget.inputMode !== 'vim' || widget.vimMode === 'normal'))
      return host.interrupt()
    // Not in vim mode: there Esc is vim's (back to Normal mode), pressed twice as often as not.
    if (notation === '<Esc>' && widget.text === '' && widget.inputMode !== 'vim' && !host.running()) {
      const now = Date.now()
      this.lastEsc = now - this.lastEsc < REWIND_WINDOW_MS ? 0 : now
      if (this.lastEsc === 0) return host.submit('/rewind')
      return host.draw()
    }

    if (notation === '<C-d>') {
      if (widget.text === '') host.exit()
      return
    }

    if (notation === '\t' && widget.inserting) {
      const completed = (await this.mentions.complete(widget)) ?? (await completeArgument(widget, this.host.commands()))
      if (completed) {
        host.notice(completed.notice)
        return host.draw()
      }
    }

    const effect = widget.key(notation)
    clearTimeout(this.vimTimer)
    if (widget.inputMode === 'vim') this.vimTimer = setTimeout(() => widget.tick() && host.draw(), 600)
    if (effect.kind === 'exit') return host.exit()
    if (effect.kind === 'message') host.notice(effect.message)
    if (effect.kind === 'submit') await host.submit(effect.text)
    else host.draw()
  }

  /** Up, Down, Tab, Enter and Esc while the command menu is open; false for any other key (it edits the prompt). */
  private menuKey(notation: string): boolean {
    const {widget} = this.host
    const {text} = widget
    const picked = this.menu.picked(text)
    if (!picked) return false
    if (notation === '<Up>' || notation === '<Down>') this.menu.move(text, notation === '<Up>' ? -1 : 1)
    else if (notation === '<Esc>' && !this.host.running()) this.menu.close(text)
    else if (notation === '\t') widget.replace(0, text.length, `/${picked.name} `)
    else if (notation === '<CR>' && !this.host.isCommand(text.slice(1))) {
      widget.clear()
      void this.host.submit(`/${picked.name}`)
    } else return false
    return true
  }

  private ctrlC(): void {
    const {host} = this
    const {widget} = host
    if (host.running()) return host.interrupt()
    const now = Date.now()
    if (widget.text !== '') {
      widget.clear()
    } else if (now - this.lastCtrlC < EXIT_WINDOW_MS) {
      return host.exit()
    } else {
      host.notice('Press Ctrl-C again to exit')
    }

    this.lastCtrlC = now
    host.draw()
  }
}
