import type {AgentSession, Prompter, TodoItem} from '@hanzo-dev/sdk'
import type {ChalkInstance} from 'chalk'

import {subagentsOf} from '../adapters/agent-session/index.js'
import type {MemoryFile} from '../adapters/memory-notes.js'
import type {SlashCommandRegistry} from '../core/slash/index.js'
import {type ChatCommandContext} from './builtin-commands.js'
import {drawScreen, type ScreenState} from './chat-screen.js'
import {BusyLine} from './busy-line.js'
import {type ChatMode, modeLabel, modePrompter, nextMode} from './chat-modes.js'
import {ChatKeys} from './chat-keys.js'
import {ChatStatus} from './chat-status.js'
import {KeyChoice, type KeyOption} from './key-choice.js'
import {type ChatTerminal, TerminalHold} from './terminal-hold.js'
import {TurnView} from './turn-view.js'
import {LiveRegion} from './live-region.js'
import type {PromptHistory} from './prompt-history.js'
import {type InputMode, PromptWidget} from './prompt-widget.js'
import {PromptPipeline} from './prompt-pipeline.js'
import {Scrollback} from './scrollback.js'
import {TurnQuestions} from './turn-questions.js'

/** A line of the banner above the first prompt, and how its rows are painted. */
export interface BannerLine {
  text: string
  paint(row: string): string
}

/** What a continued session shows of its past: the conversation, and the plan (todo_write) it left. */
export interface Earlier {
  earlier: readonly string[]
  plan: readonly TodoItem[]
}

/** The agent session once it is open, and what to show of its past (`--continue`). */
export interface OpenedChat extends Earlier {
  session: AgentSession
}

export interface ChatOptions {
  terminal: ChatTerminal
  /** The workspace (`@` completion lists its files). */
  cwd: string
  style: ChalkInstance
  history: PromptHistory
  inputMode: InputMode
  commands: SlashCommandRegistry<ChatCommandContext>
  permissionMode: string
  /** Where a `#` note can go. */
  memory: {project: MemoryFile; user: MemoryFile}
}

/**
 * The interactive session (`hanzo-dev` on a terminal): the prompt at the bottom, the
 * conversation above it in the terminal's scrollback, on one agent session. Esc or Ctrl-C
 * interrupts the running turn; Ctrl-C twice, or Ctrl-D on an empty prompt, exits. A permission
 * question appears in place, with the diff of an edit, and is answered with one key.
 */
export class ChatSession {
  readonly prompter: Prompter = modePrompter(() => this.mode, {
    elicit: (request) => this.questions.forms.ask(request),
    requestPermission: (tool, input, context) => this.questions.permissions.ask(tool, input, context),
  })
  /** Shift+Tab's mode: over the session's permission mode, it only answers questions or narrows the tools. */
  private mode: ChatMode = 'default'
  /** A one-key question of the chat's own (approve a plan, where a memory goes). */
  private readonly choice = new KeyChoice()
  private readonly keys: ChatKeys
  private readonly hold: TerminalHold
  private readonly scrollback: Scrollback
  private readonly view: TurnView
  private session?: AgentSession
  private readonly region: LiveRegion
  private readonly widget: PromptWidget
  private readonly screen: Pick<ScreenState, 'notice'> = {}
  private running?: AbortController
  private readonly prompts: PromptPipeline
  private readonly questions: TurnQuestions
  private readonly busy = new BusyLine(() => this.draw())
  private readonly status: ChatStatus
  private closed = false
  private finished?: () => void
  /** Settles when the session is open (or failed to open). */
  private opening?: Promise<void>

  constructor(private readonly options: ChatOptions) {
    this.status = new ChatStatus(options.permissionMode, () => this.session)
    this.region = new LiveRegion(options.terminal.output)
    this.widget = new PromptWidget(options.inputMode, options.history)
    // Drawn anew on a resize, not only rewrapped: the status line is fitted to the new width.
    this.hold = new TerminalHold(
      options.terminal,
      (text, key) => this.keys.onKeypress(text, key),
      () => this.draw(),
    )
    this.scrollback = new Scrollback(
      this.region,
      this.hold,
      () => this.closed,
      () => this.draw(),
    )
    this.view = new TurnView(
      {
        busy: this.busy,
        draw: () => this.draw(),
        print: (text) => this.print(text),
        style: options.style,
        usage: (usage) => {
          this.status.meter.add(usage)
          this.status.update()
        },
      },
      () => options.terminal.output.columns ?? 80,
    )
    this.questions = new TurnQuestions({
      busy: this.busy,
      draw: () => this.draw(),
      history: options.history,
      interrupt: () => this.interrupt(),
      interrupted: () => this.running?.signal.aborted ?? false,
      print: (text) => this.print(text),
      style: options.style,
      view: this.view,
      width: () => this.region.width,
    })
    this.keys = new ChatKeys(
      {
        choice: this.choice,
        forms: this.questions.forms,
        commands: () => options.commands.list().map(({definition}) => definition),
        cycleMode: () => {
          this.mode = nextMode(this.mode)
          this.draw()
        },
        draw: () => this.draw(),
        exit: () => this.exit(),
        interrupt: () => this.interrupt(),
        isCommand: (name) => options.commands.get(name) !== undefined,
        mentions: async (prefix, signal) => (await this.session?.completeMention?.(prefix, signal)) ?? [],
        notice: (text) => {
          this.screen.notice = text
        },
        questions: this.questions.permissions,
        running: () => this.running !== undefined,
        submit: (text) => this.prompts.submit(text),
        widget: this.widget,
      },
      options.cwd,
    )
    this.prompts = new PromptPipeline({
      ask: (title, answers) => this.ask(title, answers),
      chat: this,
      closed: () => this.closed,
      commands: options.commands,
      draw: () => this.draw(),
      history: options.history,
      memory: options.memory,
      meter: this.status.meter,
      mode: () => this.mode,
      notice: (text) => {
        this.screen.notice = text
      },
      pastes: this.keys.pastes,
      print: (text) => this.print(text),
      say: (text, paint) => this.say(text, paint),
      session: () => this.session,
      sessionOpened: () => this.sessionOpened(),
      setMode: (mode) => {
        this.mode = mode
      },
      settleUsage: () => this.settleUsage(),
      style: options.style,
      updateStatus: () => this.status.update(),
      view: this.view,
      whileBusy: (label, work) => this.whileBusy(label, work),
    })
  }

  /**
   * Runs until the user exits; resolves when the terminal is given back. The prompt is drawn at
   * once and takes keys while the session opens (plugins, MCP servers): a prompt sent before it
   * is open waits for it. A session that fails to open ends the UI (the caller reports why).
   */
  async start(opening: Promise<OpenedChat>, banner: readonly BannerLine[], firstPrompt?: string): Promise<void> {
    this.hold.take()
    // Wrapped between words like any other text (at 40 columns too), the directory's name through the printer.
    for (const {paint, text} of banner) this.say(text, paint)
    this.status.update()
    this.draw()
    const done = new Promise<void>((resolve) => {
      this.finished = resolve
    })
    this.opening = opening.then(
      ({session, ...past}) => {
        this.session = session
        subagentsOf(session)?.watch((progress) => this.view.subagent(progress))
        this.showPast(past)
        this.draw()
        void this.status.meter.learnBudget(session).then(() => this.draw())
      },
      () => {
        // The error is reported under the banner, without a prompt that no longer takes anything.
        this.region.draw([])
        this.exit()
      },
    )
    if (firstPrompt?.trim()) void this.prompts.submit(firstPrompt)
    await done
    this.busy.stop()
    this.keys.dispose()
    this.region.release()
    this.hold.give()
  }

  /**
   * Gives the terminal to `work` (a login's own prompts, `/login`), then takes it back: the
   * prompt is erased meanwhile and drawn again after.
   */
  suspend<T>(work: () => Promise<T>): Promise<T> {
    return this.scrollback.suspend(work)
  }

  /** True while the terminal is given to someone else ({@link suspend}). */
  get suspended(): boolean {
    return this.hold.suspended
  }

  /** A line for good, above the prompt. */
  print(text: string): void {
    this.scrollback.print(text)
  }

  /** Plain words for good, above the prompt, wrapped at the terminal's width and through the printer (Scrollback.say). */
  say(text: string, paint: (row: string) => string = (row) => row): void {
    this.scrollback.say(text, paint)
  }

  /**
   * Goes on with another session (`/resume ID`): its earlier conversation is shown, and the next
   * prompt carries it on. Without `past`, the same conversation goes on (another model).
   */
  switchTo(session: AgentSession, past?: Earlier): void {
    this.session = session
    subagentsOf(session)?.watch((progress) => this.view.subagent(progress))
    this.prompts.switched()
    this.status.meter.reset()
    if (past) this.showPast(past)
    void this.status.meter.learnBudget(session).then(() => this.settleUsage())
  }

  private showPast({earlier, plan}: Earlier): void {
    if (earlier.length > 0) this.print(earlier.join('\n'))
    this.view.resumePlan(plan)
  }

  /** Starts the conversation over: the next prompt is sent without the earlier ones. What it cost stays counted. */
  clearConversation(): void {
    this.prompts.startOver()
    this.status.meter.contextTokens = 0
    this.status.update()
  }

  /** Puts `text` into the prompt for the user to edit and send (`/rewind` gives the picked prompt back). */
  fillPrompt(text: string): void {
    this.widget.replace(0, this.widget.text.length, text)
    this.draw()
  }

  get style(): ChalkInstance {
    return this.options.style
  }

  /** The terminal's width, for what is fitted to it (a diff). */
  get width(): number {
    return this.region.width
  }

  setInputMode(mode: InputMode): void {
    this.widget.setMode(mode)
  }

  get inputMode(): InputMode {
    return this.widget.inputMode
  }

  exit(): void {
    this.closed = true
    this.running?.abort()
    this.finished?.()
  }

  private interrupt(): void {
    this.running?.abort()
    this.screen.notice = 'Interrupted'
    // What was queued behind the turn is not sent: it goes back to the prompt, to edit or send again.
    const queued = this.prompts.takeQueued()
    if (queued.length > 0) this.widget.replace(0, 0, [...queued, ...(this.widget.text ? [''] : [])].join('\n'))
    this.draw()
  }

  /** A one-key question above the prompt, drawn at once. */
  ask<T>(title: string, options: ReadonlyArray<KeyOption<T>>): Promise<T | undefined> {
    const answer = this.choice.ask(title, options)
    this.draw()
    return answer
  }

  /** Waits, with a spinner Esc stops, for the session still opening; false when it did not open or the wait was interrupted. */
  private async sessionOpened(): Promise<boolean> {
    const opened = await this.whileBusy('Starting the session', (signal) =>
      Promise.race([
        this.opening!.then(() => true),
        new Promise<boolean>((resolve) => signal.addEventListener('abort', () => resolve(false))),
      ]),
    )
    return opened && this.session !== undefined
  }

  /** Runs `work` as what Esc and Ctrl-C interrupt (its signal aborts), with a spinner saying `label`. */
  private async whileBusy<T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController()
    this.running = controller
    this.busy.start(label)
    try {
      return await work(controller.signal)
    } finally {
      this.running = undefined
      this.busy.stop()
      this.draw()
    }
  }

  private async settleUsage(): Promise<void> {
    await this.status.settle()
    this.draw()
  }

  private draw(): void {
    // While the terminal is given away (the setup screen), the spinner's turns draw nothing.
    if (this.closed || this.suspended) return
    this.status.update()
    const {style} = this.options
    drawScreen(
      this.region,
      this.widget,
      {
        ...this.screen,
        status: this.status.text,
        // A command waiting on the user's answer is not busy: the question is what is on.
        busy: this.choice.active ? undefined : this.busy.text,
        held: this.view.held,
        partial: this.view.partial,
        todos: this.view.liveTodos,
        subagents: this.view.liveSubagents,
        menu: this.keys.menuLines(style, this.region.width),
        mode: modeLabel(this.mode),
        question: [...this.questions.lines, ...this.choice.lines(style)],
        queued: this.prompts.queued,
      },
      style,
      this.questions.input,
    )
  }
}
