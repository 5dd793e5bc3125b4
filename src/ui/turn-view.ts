import type {AgentEvent, TodoItem, Usage} from '@hanzo-dev/sdk'
import type {ChalkInstance} from 'chalk'

import type {SubagentProgress} from '../adapters/tools/subagents.js'
import type {ReplyPrinter} from '../cli/reply-printer.js'
import {subagentLine} from '../cli/subagent-line.js'
import {planSoFar, todoLines} from '../cli/todo-lines.js'
import {callLine, compactionLine, isCallItem, toolResultLines} from '../cli/tool-result-lines.js'
import type {BusyLine} from './busy-line.js'

/** What a turn's view needs of the chat around it. */
export interface TurnViewHost {
  style: ChalkInstance
  busy: BusyLine
  /** A line for good, above the prompt. */
  print(text: string): void
  /** A model request's usage arrived. */
  usage(usage: Usage): void
  draw(): void
}

/**
 * How a turn shows in the chat: the reply's finished lines above the prompt (markdown rendered),
 * its unfinished line and held-back block in the live region, a line per tool call and its result,
 * and the spinner between them. The plan (todo_write) is printed with its call each time it
 * changes, and shown in the live region while a turn runs; so is each `task` child, folded
 * into one line that counts its tool uses.
 */
export class TurnView {
  /** The line the reply is still writing, and what it holds back until a block is complete. */
  partial = ''
  held?: string
  /** The session's plan as the model last left it: it lasts from turn to turn. */
  private todos: readonly TodoItem[] = []
  /** The `task` children running, by id: a line each in the live region until it ends. */
  private readonly subagents = new Map<number, SubagentProgress>()
  private running = false
  private reply?: ReplyPrinter
  /** Loaded after the prompt is drawn: the markdown renderer's highlighter is not worth a slower start. */
  private readonly printer: Promise<ReplyPrinter>

  constructor(
    private readonly host: TurnViewHost,
    columns: () => number,
  ) {
    this.printer = import('../cli/reply-printer.js').then(({ReplyPrinter}) => new ReplyPrinter(host.style, columns))
  }

  /** Before a turn: the printer is loaded. */
  async begin(): Promise<void> {
    this.reply = await this.printer
    this.running = true
  }

  /**
   * The plan a continued session left, printed under its conversation so far: the next turn
   * shows it live, as if the model had just written it, until the model writes another.
   */
  resumePlan(todos: readonly TodoItem[]): void {
    this.todos = todos
    if (todos.length === 0) return
    this.host.print(planSoFar(todos, this.host.style))
  }

  /** The plan's lines for the live region: while a turn runs, and the model keeps one. */
  get liveTodos(): string[] {
    return this.running && this.todos.length > 0 ? todoLines(this.todos, this.host.style) : []
  }

  /** The running children's lines for the live region. */
  get liveSubagents(): string[] {
    return [...this.subagents.values()].map((progress) => subagentLine(progress, this.host.style))
  }

  /** A child started, used a tool or ended: an ended one's line is printed for good. */
  subagent(progress: SubagentProgress): void {
    if (progress.status === 'running') this.subagents.set(progress.id, progress)
    else {
      this.subagents.delete(progress.id)
      this.end()
      this.host.print(subagentLine(progress, this.host.style))
    }

    this.host.draw()
  }

  onEvent(event: AgentEvent): void {
    const {busy, style} = this.host
    switch (event.type) {
      case 'text_delta': {
        busy.stop()
        this.host.print(this.reply!.push(event.text))
        this.partial = this.reply!.partial
        this.held = this.reply!.held
        break
      }

      case 'item_started': {
        if (event.item.type === 'compaction') {
          this.end()
          this.host.print(compactionLine(event.item, style))
          busy.start('Compacting the conversation')
        }

        if (!isCallItem(event.item)) break
        this.end()
        this.host.print(callLine(event.item, style))
        busy.start(`Running ${event.item.name}`)
        break
      }

      case 'item_completed': {
        const {item} = event
        if (item.type === 'compaction') {
          this.host.print(compactionLine(item, style))
          busy.start('Thinking')
        }

        if (item.type === 'todo_list') this.todos = item.todos
        if (!isCallItem(item) || !item.result) break
        busy.stop()
        this.host.print(toolResultLines(item.result, {style, verbose: false}).join('\n'))
        busy.start('Thinking')
        break
      }

      case 'usage': {
        this.host.usage(event.usage)
        break
      }

      default:
    }

    this.host.draw()
  }

  /** The reply's text so far goes above the prompt for good (a tool call, a question or the end of the turn comes next). */
  end(): void {
    this.host.print(this.reply?.flush() ?? '')
    this.partial = ''
    this.held = undefined
  }

  /** The turn is over: its plan stays above, printed, and leaves the live region. */
  over(): void {
    this.end()
    this.running = false
  }
}
