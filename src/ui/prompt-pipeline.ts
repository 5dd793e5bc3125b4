import type {AgentSession, ImagePart, ToolScope} from '@hanzo-dev/sdk'
import {oneLine, printable} from '@hanzo-dev/sdk/terminal-text'

import {addMemoryNote} from '../adapters/memory-notes.js'
import {AgentRunError} from '../core/errors.js'
import type {ChatOptions, ChatSession} from './chat-session.js'
import {type ChatMode, PLAN_ANSWERS, PLAN_APPROVED, PLAN_INSTRUCTIONS} from './chat-modes.js'
import type {KeyOption} from './key-choice.js'
import type {PastedTexts} from './pasted-text.js'
import type {TurnView} from './turn-view.js'
import type {UsageMeter} from './usage-meter.js'

/** What the pipeline needs of the chat around it: the screen, the session, the one-key questions. */
export interface PromptHost extends Pick<ChatOptions, 'commands' | 'history' | 'memory' | 'style'> {
  chat: ChatSession
  pastes: PastedTexts
  view: TurnView
  meter: UsageMeter
  /** Read at each use: a command (`/resume`, `/model`) may switch sessions between a prompt's steps. */
  session(): AgentSession | undefined
  /** Waits for the session still opening; false when it did not open or the wait was interrupted. */
  sessionOpened(): Promise<boolean>
  closed(): boolean
  mode(): ChatMode
  setMode(mode: ChatMode): void
  /** A one-key question above the prompt, drawn at once. */
  ask<T>(title: string, options: ReadonlyArray<KeyOption<T>>): Promise<T | undefined>
  /** Runs `work` as what Esc and Ctrl-C interrupt (its signal aborts), with a spinner saying `label`. */
  whileBusy<T>(label: string, work: (signal: AbortSignal) => Promise<T>): Promise<T>
  print(text: string): void
  say(text: string, paint?: (row: string) => string): void
  notice(text: string | undefined): void
  draw(): void
  updateStatus(): void
  settleUsage(): Promise<void>
}

/** A prompt that is a note for memory: `#` then the note, on one line (`##` or `#!` is text). */
const MEMORY_NOTE = /^#[^#!\n][^\n]*$/

/**
 * What becomes of a line the user sends: queued behind the one being handled, a slash command,
 * a `!` shell line, a `#` memory note, or a turn of the session with what was attached (`@`
 * files and images, a command's or a shell line's output), approved first in plan mode.
 */
export class PromptPipeline {
  /** Set while a prompt is handled, from Enter to the end of its turn: another Enter then queues. */
  private sending = false
  /** Prompts sent while another was handled: each goes in turn; Esc brings them back to the prompt. */
  private readonly waiting: string[] = []
  /** Set by `/clear`: the next turn is sent without the earlier ones. */
  private fresh = false
  /** What slash commands added (`/diff`): sent ahead of the next prompt. */
  private readonly context: string[] = []
  /** The images attached to the next prompt (`@shot.png`, a pasted image path). */
  private readonly images: ImagePart[] = []

  constructor(private readonly host: PromptHost) {}

  get queued(): readonly string[] {
    return this.waiting
  }

  /** Esc: what waited is not sent, the caller gives it back to the prompt. */
  takeQueued(): string[] {
    return this.waiting.splice(0)
  }

  /** The next prompt starts the conversation over. */
  startOver(): void {
    this.fresh = true
  }

  /** Another session goes on (`/resume`, another model): what was gathered for the old one is dropped. */
  switched(): void {
    this.fresh = false
    this.context.splice(0)
  }

  /** Handles a prompt now, or queues it behind the one being handled. */
  async submit(typed: string): Promise<void> {
    const {host} = this
    if (typed.trim() === '') return host.draw()
    // What was pasted goes in whole; the prompt echoed above keeps the placeholder.
    const text = host.pastes.expand(typed)
    if (this.sending) {
      this.waiting.push(typed)
      host.notice('Sent when the running one ends; Esc interrupts and brings it back to edit')
      return host.draw()
    }

    this.sending = true
    try {
      await this.send(text, typed)
      for (let next = this.waiting.shift(); next !== undefined && !host.closed(); next = this.waiting.shift())
        await this.send(host.pastes.expand(next), next)
    } finally {
      this.sending = false
    }
  }

  private async send(text: string, shown?: string): Promise<void> {
    const {host} = this
    const {style} = host
    if (!host.session() && !(await host.sessionOpened())) return

    await host.history.add(text).catch(() => undefined)
    host.print(
      printable(shown ?? text)
        .split('\n')
        .map((line, index) => style.bold(`${index === 0 ? '›' : ' '} ${line}`))
        .join('\n'),
    )
    const resolved = host.commands.resolve(text)
    if (resolved.kind === 'unknown') return this.fail(resolved.message)
    let prompt = resolved.kind === 'text' ? resolved.text : undefined
    let tools: ToolScope | undefined
    if (resolved.kind === 'command') {
      // A command may take a while (/commit asks the model): Esc aborts it as it does a turn.
      const {args, argv, command} = resolved
      const result = await host
        .whileBusy(`/${command.definition.name}`, async (signal) => {
          const session = host.session()!
          return command.definition.run({args, argv, chat: host.chat, cwd: session.cwd, session, signal})
        })
        .catch((error: unknown) => this.fail(error))
      // A command may have asked the model (/commit, /plan, /compact): the status line counts it too.
      await host.settleUsage()
      if (result?.message) host.say(result.message)
      if (result?.context) this.context.push(result.context)
      prompt = result?.prompt
      tools = result?.tools
      if (host.closed()) return
    }

    if (prompt === undefined) return host.draw()
    if (resolved.kind === 'text' && prompt.startsWith('!')) return this.shell(prompt.slice(1).trim())
    if (resolved.kind === 'text' && MEMORY_NOTE.test(prompt)) return this.remember(prompt.slice(1).trim())
    const attached = await (
      await attachments()
    ).attachMentions(host.session()!, prompt, new AbortController().signal, host.pastes.imagesIn(prompt))
    for (const note of attached.notes) host.say(note.text, note.ok ? style.dim : style.yellow)
    this.context.push(...attached.context)
    this.images.push(...attached.images)
    if (host.mode() !== 'plan' || resolved.kind !== 'text') return void (await this.turn(prompt, tools))
    // Plan mode: the model may only look; what it proposes is carried out once approved.
    if ((await this.turn(`${PLAN_INSTRUCTIONS}\n\n${prompt}`, 'read-only')) !== 'completed') return
    const approved = await host.ask('Carry out this plan?', PLAN_ANSWERS)
    if (approved === undefined) return host.draw()
    host.setMode(approved)
    await this.turn(PLAN_APPROVED)
  }

  /** `# note`: one line for a memory file the agent reads at every start, the user picks which. */
  private async remember(note: string): Promise<void> {
    const {host} = this
    const {project, user} = host.memory
    const file = await host.ask('Save this note to', [
      {key: '1', label: project.label, value: project},
      {key: '2', label: user.label, value: user},
    ])
    if (!file) return host.draw()
    await addMemoryNote(file, note).then(
      () => host.say(`Saved to ${file.label}; sessions read it from their start.`, host.style.dim),
      (error: unknown) => this.fail(error),
    )
    host.draw()
  }

  /** `!command`: run now under the session's policy; its output goes with the next prompt. */
  private async shell(command: string): Promise<void> {
    const {host} = this
    if (command === '') return this.fail('Give a command after !, as in !git status')
    const ran = await host
      .whileBusy(`Running ${oneLine(command, 60)}`, async (signal) =>
        (await attachments()).runShellLine(host.session()!, command, signal),
      )
      .catch((error: unknown) => this.fail(error))
    if (!ran) return
    if (ran.output) host.print(host.style.dim(printable(ran.output)))
    if (ran.failed) host.say('The command failed; its output goes with your next prompt.', host.style.yellow)
    this.context.push(ran.context)
    host.draw()
  }

  /** Runs one turn; resolves to how it stopped, undefined when it failed. */
  private async turn(prompt: string, tools?: ToolScope): Promise<string | undefined> {
    const {host} = this
    const session = host.session()!
    return host.whileBusy('Thinking', async (signal) => {
      try {
        await host.view.begin()
        const history = this.fresh ? [] : undefined
        this.fresh = false
        const context = this.context.splice(0)
        const images = this.images.splice(0)
        const result = await session.run(context.length > 0 ? `${context.join('\n\n')}\n\n${prompt}` : prompt, {
          history,
          ...(images.length > 0 && {images}),
          onEvent: (event) => host.view.onEvent(event),
          signal,
          ...(tools === undefined ? {} : {tools}),
        })
        host.view.over()
        host.meter.settle(result.usageReport.session)
        const {yellow} = host.style
        if (result.stop === 'cancelled')
          host.say('Interrupted: the turn was stopped. The conversation goes on from here.', yellow)
        else if (result.stop === 'max_turns')
          host.say(`Stopped after ${result.turns} model requests (max_turns).`, yellow)
        else if (result.stop === 'max_tokens')
          host.say("The reply was cut at the model's output limit (max_output_tokens).", yellow)
        return result.stop
      } catch (error) {
        host.view.over()
        this.fail(error)
        return undefined
      } finally {
        host.notice(undefined)
        host.updateStatus()
      }
    })
  }

  /** An error line; a model error says the server's own message. */
  private fail(problem: unknown): void {
    const message =
      problem instanceof AgentRunError
        ? (problem.reason ?? problem.message)
        : problem instanceof Error
          ? problem.message
          : String(problem)
    this.host.say(`✗ ${message}`, this.host.style.red)
    this.host.draw()
  }
}

/** `@file` and `!command` support, loaded when first used (the file walker is not worth a slower start). */
function attachments(): Promise<typeof import('./prompt-attachments.js')> {
  return import('./prompt-attachments.js')
}
