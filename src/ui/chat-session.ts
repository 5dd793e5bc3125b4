import {emitKeypressEvents} from 'node:readline'

import type {AgentEvent, AgentSession, Prompter, ToolScope} from '@hanzo-dev/sdk'
import type {ChalkInstance} from 'chalk'
import {oneLine, printable} from '@hanzo-dev/sdk/terminal-text'

import {callLine, compactionLine, isCallItem, toolResultLines} from '../cli/tool-result-lines.js'
import {addMemoryNote, type MemoryFile} from '../adapters/memory-notes.js'
import {AgentRunError} from '../core/errors.js'
import {wrapPlain} from '../core/markdown/wrap.js'
import type {SlashCommandRegistry} from '../core/slash/index.js'
import {type ChatCommandContext} from './builtin-commands.js'
import {drawScreen, type ScreenState, statusLine} from './chat-screen.js'
import {BusyLine} from './busy-line.js'
import {type ChatMode, modeLabel, modePrompter, nextMode, PLAN_APPROVED, PLAN_INSTRUCTIONS} from './chat-modes.js'
import {KeyChoice, type KeyOption} from './key-choice.js'
import {PastedTexts} from './pasted-text.js'
import {SlashMenu} from './slash-menu.js'
import {type Keypress, keyNotations} from './keys.js'
import {LiveRegion} from './live-region.js'
import {MentionCompleter} from './mention-completer.js'
import type {PromptHistory} from './prompt-history.js'
import {PermissionQuestions} from './permission-question.js'
import {type InputMode, PromptWidget} from './prompt-widget.js'
import type {ReplyPrinter} from '../cli/reply-printer.js'
import {UsageMeter} from './usage-meter.js'

export interface ChatTerminal {
  input: NodeJS.ReadStream
  output: NodeJS.WriteStream
}

/** The agent session once it is open, and what to show of its past (`--continue`). */
export interface OpenedChat {
  session: AgentSession
  earlier: readonly string[]
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
  /** The `max_tokens` setting: the status line shows how much of it the conversation fills. */
  contextBudget?: number
  /** Where a `#` note can go. */
  memory: {project: MemoryFile; user: MemoryFile}
}

/** A prompt that is a note for memory: `#` then the note, on one line (`##` or `#!` is text). */
const MEMORY_NOTE = /^#[^#!\n][^\n]*$/
const BRACKETED_PASTE_ON = '\u001B[?2004h'
const BRACKETED_PASTE_OFF = '\u001B[?2004l'

/** Ctrl-C pressed twice within this long exits. */
const EXIT_WINDOW_MS = 2000

/**
 * The interactive session (`hanzo-dev` on a terminal): the prompt at the bottom, the
 * conversation above it in the terminal's scrollback, on one agent session. Esc or Ctrl-C
 * interrupts the running turn; Ctrl-C twice, or Ctrl-D on an empty prompt, exits. A permission
 * question appears in place, with the diff of an edit, and is answered with one key.
 */
export class ChatSession {
  readonly prompter: Prompter = modePrompter(() => this.mode, {
    requestPermission: (tool, input, context) => this.questions.ask(tool, input, context),
  })
  /** Shift+Tab's mode: over the session's permission mode, it only answers questions or narrows the tools. */
  private mode: ChatMode = 'default'
  private readonly pastes = new PastedTexts()
  /** A one-key question of the chat's own (approve a plan, where a memory goes). */
  private readonly choice = new KeyChoice()
  private readonly menu: SlashMenu
  private keyListener?: (text: string | undefined, key: Keypress | undefined) => void
  private session?: AgentSession
  private readonly region: LiveRegion
  private readonly widget: PromptWidget
  private readonly screen: Omit<ScreenState, 'question' | 'busy' | 'menu' | 'mode'> = {partial: '', status: ''}
  private running?: AbortController
  /** Set while a prompt is handled, from Enter to the end of its turn: another Enter then queues. */
  private sending = false
  /** Prompts sent while another was handled: each goes in turn; Esc brings them back to the prompt. */
  private readonly queued: string[] = []
  private readonly questions: PermissionQuestions
  private lastCtrlC = 0
  private readonly busy = new BusyLine(() => this.draw())
  private readonly meter = new UsageMeter()
  private fresh = false
  /** What slash commands added (`/diff`): sent ahead of the next prompt. */
  private readonly context: string[] = []
  private closed = false
  private finished?: () => void
  private vimTimer?: NodeJS.Timeout
  private readonly mentions: MentionCompleter
  /** Settles when the session is open (or failed to open). */
  private opening?: Promise<void>
  /** Loaded after the prompt is drawn: the markdown renderer's highlighter is not worth a slower start. */
  private printer?: Promise<ReplyPrinter>
  private reply?: ReplyPrinter

  constructor(private readonly options: ChatOptions) {
    this.region = new LiveRegion(options.terminal.output)
    this.widget = new PromptWidget(options.inputMode, options.history)
    this.mentions = new MentionCompleter(options.cwd)
    this.menu = new SlashMenu(() => options.commands.list().map(({definition}) => definition))
    this.questions = new PermissionQuestions({
      answered: (decision, interrupt) => {
        if (interrupt) return this.interrupt()
        this.busy.start(decision.type === 'allow' ? 'Running' : 'Thinking')
        this.draw()
      },
      draw: () => this.draw(),
      history: options.history,
      interrupted: () => this.running?.signal.aborted ?? false,
      opening: () => {
        this.busy.stop()
        this.endText()
      },
      print: (text) => this.print(text),
      style: options.style,
      width: () => this.region.width,
    })
  }

  /**
   * Runs until the user exits; resolves when the terminal is given back. The prompt is drawn at
   * once and takes keys while the session opens (plugins, MCP servers): a prompt sent before it
   * is open waits for it. A session that fails to open ends the UI (the caller reports why).
   */
  async start(opening: Promise<OpenedChat>, banner: string[], firstPrompt?: string): Promise<void> {
    const {input, output} = this.options.terminal
    emitKeypressEvents(input)
    input.setRawMode(true)
    input.resume()
    this.keyListener = (text: string | undefined, key: Keypress | undefined) => this.onKeypress(text, key)
    // Drawn anew, not only rewrapped: the status line is fitted to the new width.
    const onResize = () => this.draw()
    input.on('keypress', this.keyListener)
    output.on('resize', onResize)
    // Bracketed paste: the terminal marks what is pasted, so its line breaks do not send it.
    output.write(BRACKETED_PASTE_ON)
    this.region.commit(banner.join('\n'))
    this.updateStatus()
    this.draw()
    const done = new Promise<void>((resolve) => {
      this.finished = resolve
    })
    this.opening = opening.then(
      ({earlier, session}) => {
        this.session = session
        if (earlier.length > 0) this.print(earlier.join('\n'))
        this.updateStatus()
        this.draw()
      },
      () => {
        // The error is reported under the banner, without a prompt that no longer takes anything.
        this.region.draw([])
        this.exit()
      },
    )
    this.printer = import('../cli/reply-printer.js').then(
      ({ReplyPrinter}) => new ReplyPrinter(this.options.style, () => output.columns ?? 80),
    )
    if (firstPrompt?.trim()) void this.submit(firstPrompt)
    await done
    input.off('keypress', this.keyListener)
    output.off('resize', onResize)
    output.write(BRACKETED_PASTE_OFF)
    this.busy.stop()
    clearTimeout(this.vimTimer)
    this.region.release()
    input.setRawMode(false)
    input.pause()
  }

  /**
   * Gives the terminal to `work` (a login's own prompts, `/login`), then takes it back: the
   * prompt is erased meanwhile and drawn again after.
   */
  async suspend<T>(work: () => Promise<T>): Promise<T> {
    const {input, output} = this.options.terminal
    if (!this.keyListener || this.closed) return work()
    input.off('keypress', this.keyListener)
    this.region.draw([])
    output.write(BRACKETED_PASTE_OFF)
    input.setRawMode(false)
    try {
      return await work()
    } finally {
      input.setRawMode(true)
      input.resume()
      output.write(BRACKETED_PASTE_ON)
      input.on('keypress', this.keyListener)
      this.draw()
    }
  }

  /** A line for good, above the prompt. */
  print(text: string): void {
    if (!this.closed) this.region.commit(text)
  }

  /**
   * Plain words for good, above the prompt: wrapped between words at the terminal's width (the
   * terminal would cut them anywhere), each row painted. Through the printer: the words are often
   * a plugin's, a server's or a file's (a slash command's answer, an error, a warning).
   */
  say(text: string, paint: (row: string) => string = (row) => row): void {
    const {width} = this.region
    this.print(
      printable(text)
        .split('\n')
        .flatMap((line) => wrapPlain(line, width).map((row) => paint(row)))
        .join('\n'),
    )
  }

  /** Goes on with another session (`/resume ID`): its earlier conversation is shown, and the next prompt carries it on. */
  switchTo(session: AgentSession, earlier: readonly string[]): void {
    this.session = session
    this.fresh = false
    this.context.splice(0)
    this.meter.reset()
    if (earlier.length > 0) this.print(earlier.join('\n'))
    void this.settleUsage()
  }

  /** Starts the conversation over: the next prompt is sent without the earlier ones. What it cost stays counted. */
  clearConversation(): void {
    this.fresh = true
    this.meter.contextTokens = 0
    this.updateStatus()
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

  /** Synchronous: the keys of one chunk (a paste, Esc and the key after it) must be taken in order. */
  private onKeypress(text: string | undefined, key: Keypress | undefined): void {
    if (key?.name === 'paste-start') return this.pastes.start()
    if (this.pastes.active) {
      if (key?.name === 'paste-end') {
        this.widget.replace(this.widget.cursor, this.widget.cursor, this.pastes.end())
        this.draw()
      } else this.pastes.add(key?.sequence ?? text ?? '')
      return
    }

    for (const notation of keyNotations(text, key, {vim: this.widget.inputMode === 'vim'})) void this.onKey(notation)
  }

  private async onKey(notation: string): Promise<void> {
    // A question that appears while a prompt is being typed must not take its letters (the `a` of
    // "also" would allow for the session): they go on into the prompt until it is sent (queued) or cleared.
    const answers =
      this.widget.text === '' || notation === '<C-c>' || (notation === '<Esc>' && this.widget.inputMode !== 'vim')
    if (this.questions.active && answers) return this.questions.answer(notation)
    if (this.choice.active && answers) {
      if (this.choice.answer(notation)) this.draw()
      return
    }

    if (notation === '<C-c>') return this.ctrlC()
    if (notation === '<S-Tab>') {
      this.mode = nextMode(this.mode)
      return this.draw()
    }

    if (this.widget.inserting && this.menuKey(notation)) return this.draw()
    this.screen.notice = this.questions.active
      ? 'Send your prompt (Enter queues it) or delete it, then answer the question'
      : undefined
    if (this.running && notation === '<Esc>' && (this.widget.inputMode !== 'vim' || this.widget.vimMode === 'normal')) {
      this.interrupt()
      return
    }

    if (notation === '<C-d>') {
      if (this.widget.text === '') this.exit()
      return
    }

    if (notation === '\t' && this.widget.inserting) {
      const completed = await this.mentions.complete(this.widget)
      if (completed) {
        this.screen.notice = completed.notice
        return this.draw()
      }
    }

    const effect = this.widget.key(notation)
    clearTimeout(this.vimTimer)
    if (this.widget.inputMode === 'vim') this.vimTimer = setTimeout(() => this.widget.tick() && this.draw(), 600)
    if (effect.kind === 'exit') return this.exit()
    if (effect.kind === 'message') this.screen.notice = effect.message
    if (effect.kind === 'submit') await this.submit(effect.text)
    else this.draw()
  }

  /** Up, Down, Tab, Enter and Esc while the command menu is open; false for any other key (it edits the prompt). */
  private menuKey(notation: string): boolean {
    const {text} = this.widget
    const picked = this.menu.picked(text)
    if (!picked) return false
    if (notation === '<Up>' || notation === '<Down>') this.menu.move(text, notation === '<Up>' ? -1 : 1)
    else if (notation === '<Esc>' && !this.running) this.menu.close(text)
    else if (notation === '\t') this.widget.replace(0, text.length, `/${picked.name} `)
    else if (notation === '<CR>' && !this.options.commands.get(text.slice(1))) {
      this.widget.clear()
      void this.submit(`/${picked.name}`)
    } else return false
    return true
  }

  private ctrlC(): void {
    if (this.running) return this.interrupt()
    const now = Date.now()
    if (this.widget.text !== '') {
      this.widget.clear()
    } else if (now - this.lastCtrlC < EXIT_WINDOW_MS) {
      return this.exit()
    } else {
      this.screen.notice = 'Press Ctrl-C again to exit'
    }

    this.lastCtrlC = now
    this.draw()
  }

  private interrupt(): void {
    this.running?.abort()
    this.screen.notice = 'Interrupted'
    // What was queued behind the turn is not sent: it goes back to the prompt, to edit or send again.
    const queued = this.queued.splice(0)
    if (queued.length > 0) this.widget.replace(0, 0, [...queued, ...(this.widget.text ? [''] : [])].join('\n'))
    this.draw()
  }

  /** Handles a prompt now, or queues it behind the one being handled. */
  private async submit(typed: string): Promise<void> {
    if (typed.trim() === '') return this.draw()
    // What was pasted goes in whole; the prompt echoed above keeps the placeholder.
    const text = this.pastes.expand(typed)
    if (this.sending) {
      this.queued.push(typed)
      this.screen.notice = 'Sent when the running one ends; Esc interrupts and brings it back to edit'
      return this.draw()
    }

    this.sending = true
    try {
      await this.send(text, typed)
      for (let next = this.queued.shift(); next !== undefined && !this.closed; next = this.queued.shift())
        await this.send(this.pastes.expand(next), next)
    } finally {
      this.sending = false
    }
  }

  private async send(text: string, shown?: string): Promise<void> {
    const {style} = this.options
    if (!this.session && !(await this.sessionOpened())) return

    await this.options.history.add(text).catch(() => undefined)
    this.print(
      printable(shown ?? text)
        .split('\n')
        .map((line, index) => style.bold(`${index === 0 ? '›' : ' '} ${line}`))
        .join('\n'),
    )
    const resolved = this.options.commands.resolve(text)
    if (resolved.kind === 'unknown') return this.fail(resolved.message)
    let prompt = resolved.kind === 'text' ? resolved.text : undefined
    let tools: ToolScope | undefined
    if (resolved.kind === 'command') {
      // A command may take a while (/commit asks the model): Esc aborts it as it does a turn.
      const {args, argv, command} = resolved
      const result = await this.whileBusy(`/${command.definition.name}`, async (signal) =>
        command.definition.run({args, argv, chat: this, cwd: this.session!.cwd, session: this.session, signal}),
      ).catch((error: unknown) => this.fail(error))
      // A command may have asked the model (/commit, /plan, /compact): the status line counts it too.
      await this.settleUsage()
      if (result?.message) this.say(result.message)
      if (result?.context) this.context.push(result.context)
      prompt = result?.prompt
      tools = result?.tools
      if (this.closed) return
    }

    if (prompt === undefined) return this.draw()
    if (resolved.kind === 'text' && prompt.startsWith('!')) return this.shell(prompt.slice(1).trim())
    if (resolved.kind === 'text' && MEMORY_NOTE.test(prompt)) return this.remember(prompt.slice(1).trim())
    const attached = await (await attachments()).attachMentions(this.session!, prompt, new AbortController().signal)
    for (const note of attached.notes) this.say(note.text, note.ok ? style.dim : style.yellow)
    this.context.push(...attached.context)
    if (this.mode !== 'plan' || resolved.kind !== 'text') return void (await this.turn(prompt, tools))
    // Plan mode: the model may only look; what it proposes is carried out once approved.
    if ((await this.turn(`${PLAN_INSTRUCTIONS}\n\n${prompt}`, 'read-only')) !== 'completed') return
    const approved = await this.ask('Carry out this plan?', [
      {key: 'y', label: 'yes, and accept edits without asking', value: 'accept-edits' as const},
      {key: 'e', label: 'yes, and ask before each edit', value: 'default' as const},
      {key: 'n', label: 'no, keep planning (tell the model what to change)', value: undefined},
    ])
    if (approved === undefined) return this.draw()
    this.mode = approved
    await this.turn(PLAN_APPROVED)
  }

  /** A one-key question above the prompt, drawn at once. */
  private ask<T>(title: string, options: ReadonlyArray<KeyOption<T>>): Promise<T | undefined> {
    const answer = this.choice.ask(title, options)
    this.draw()
    return answer
  }

  /** `# note`: one line for a memory file the agent reads at every start, the user picks which. */
  private async remember(note: string): Promise<void> {
    const {project, user} = this.options.memory
    const file = await this.ask('Save this note to', [
      {key: '1', label: project.label, value: project},
      {key: '2', label: user.label, value: user},
    ])
    if (!file) return this.draw()
    await addMemoryNote(file, note).then(
      () => this.say(`Saved to ${file.label}; sessions read it from their start.`, this.options.style.dim),
      (error: unknown) => this.fail(error),
    )
    this.draw()
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

  /** `!command`: run now under the session's policy; its output goes with the next prompt. */
  private async shell(command: string): Promise<void> {
    if (command === '') return this.fail('Give a command after !, as in !git status')
    const ran = await this.whileBusy(`Running ${oneLine(command, 60)}`, async (signal) =>
      (await attachments()).runShellLine(this.session!, command, signal),
    ).catch((error: unknown) => this.fail(error))
    if (!ran) return
    if (ran.output) this.print(this.options.style.dim(printable(ran.output)))
    if (ran.failed) this.say('The command failed; its output goes with your next prompt.', this.options.style.yellow)
    this.context.push(ran.context)
    this.draw()
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

  /** Runs one turn; resolves to how it stopped, undefined when it failed. */
  private async turn(prompt: string, tools?: ToolScope): Promise<string | undefined> {
    const session = this.session!
    return this.whileBusy('Thinking', async (signal) => {
      try {
        this.reply = await this.printer
        const history = this.fresh ? [] : undefined
        this.fresh = false
        const context = this.context.splice(0)
        const result = await session.run(context.length > 0 ? `${context.join('\n\n')}\n\n${prompt}` : prompt, {
          history,
          onEvent: (event) => this.onEvent(event),
          signal,
          ...(tools === undefined ? {} : {tools}),
        })
        this.endText()
        this.meter.settle(result.usageReport.session)
        const {yellow} = this.options.style
        if (result.stop === 'cancelled')
          this.say('Interrupted: the turn was stopped. The conversation goes on from here.', yellow)
        else if (result.stop === 'max_turns')
          this.say(`Stopped after ${result.turns} model requests (max_turns).`, yellow)
        else if (result.stop === 'max_tokens')
          this.say("The reply was cut at the model's output limit (max_output_tokens).", yellow)
        return result.stop
      } catch (error) {
        this.endText()
        this.fail(error)
        return undefined
      } finally {
        this.screen.notice = undefined
        this.updateStatus()
      }
    })
  }

  private onEvent(event: AgentEvent): void {
    const {style} = this.options
    switch (event.type) {
      case 'text_delta': {
        this.busy.stop()
        this.print(this.reply!.push(event.text))
        this.screen.partial = this.reply!.partial
        this.screen.held = this.reply!.held
        break
      }

      case 'item_started': {
        if (!isCallItem(event.item)) break
        this.endText()
        this.print(callLine(event.item, style))
        this.busy.start(`Running ${event.item.name}`)
        break
      }

      case 'item_completed': {
        const {item} = event
        if (item.type === 'compaction') this.print(compactionLine(item, style))
        if (!isCallItem(item) || !item.result) break
        this.busy.stop()
        this.print(toolResultLines(item.result, {style, verbose: false}).join('\n'))
        this.busy.start('Thinking')
        break
      }

      case 'usage': {
        this.meter.add(event.usage)
        this.updateStatus()
        break
      }

      default:
    }

    this.draw()
  }

  private endText(): void {
    this.print(this.reply?.flush() ?? '')
    this.screen.partial = ''
    this.screen.held = undefined
  }

  /** An error line; a model error says the server's own message. */
  private fail(problem: unknown): void {
    const message =
      problem instanceof AgentRunError
        ? (problem.reason ?? problem.message)
        : problem instanceof Error
          ? problem.message
          : String(problem)
    this.say(`✗ ${message}`, this.options.style.red)
    this.draw()
  }

  private async settleUsage(): Promise<void> {
    const usage = await this.session?.usage().catch(() => undefined)
    if (usage) this.meter.settle(usage)
    this.updateStatus()
    this.draw()
  }

  private updateStatus(): void {
    const session = this.session
    this.screen.status = statusLine({
      contextBudget: this.options.contextBudget,
      contextTokens: this.meter.contextTokens,
      items: session?.statusItems() ?? [],
      model: session?.model ?? 'starting…',
      permissionMode: this.options.permissionMode,
      usage: this.meter.totals,
    })
  }

  private draw(): void {
    if (this.closed) return
    // Plugins' items change during the session (an MCP server that connects late).
    this.updateStatus()
    const {style} = this.options
    drawScreen(
      this.region,
      this.widget,
      {
        ...this.screen,
        busy: this.busy.text,
        menu: this.widget.inserting ? this.menu.lines(this.widget.text, style, this.region.width) : [],
        mode: modeLabel(this.mode),
        question: [...this.questions.lines, ...this.choice.lines(style)],
        queued: this.queued,
      },
      style,
      this.questions.reasonWidget,
    )
  }
}

/** `@file` and `!command` support, loaded when first used (the file walker is not worth a slower start). */
function attachments(): Promise<typeof import('./prompt-attachments.js')> {
  return import('./prompt-attachments.js')
}
