import type {AgentEvent, CallItemBase, ToolCallRequest, TurnItem} from '@hanzo-dev/sdk'
import type {ToolKind, ToolLocation, ToolResult, ToolSubject} from '@hanzo-dev/sdk/tools'

import type {CompactionResult, CompactionStart} from './compaction.js'

/** What the executor says of a call (the core's CallDescription): undefined for a tool it does not know. */
export type CallDescriber = (
  name: string,
  input: Record<string, unknown>,
) => {kind: ToolKind; title: string; locations: readonly ToolLocation[]; subject?: ToolSubject | null} | undefined

type CallItem = Extract<TurnItem, CallItemBase>

/**
 * Builds a run's items (TurnItem) from the loop's own events and what each tool says of its
 * calls, and reports them through the same `emit`: the model's text is a message item, from
 * its first piece until a call or the end of the reply; each call an item from the model's
 * asking to its result; a compaction, the plan a call changed (after the call's item) and
 * the error that ends a run an item each, only completed (they are reported when they are over). Items are numbered per run.
 */
export class TurnItemEmitter {
  private message?: {id: string; text: string}
  private readonly calls = new Map<string, CallItem>()
  private count = 0
  /** The compaction under way, from its start to its result. */
  private compaction?: {id: string} & CompactionStart

  constructor(
    private readonly emit: (event: AgentEvent) => void,
    private readonly describe?: CallDescriber,
  ) {}

  /** Reports a loop event, with the items it starts or completes around it: a message is started before its first piece of text. */
  report(event: AgentEvent): void {
    if (event.type === 'text_delta' && !this.message) {
      this.message = {id: this.nextId('msg'), text: ''}
      this.emit({item: {id: this.message.id, text: '', type: 'message'}, type: 'item_started'})
    }

    if (event.type === 'tool_call' || event.type === 'turn_start') this.finish()
    this.emit(event)
    switch (event.type) {
      case 'text_delta': {
        this.message!.text += event.text
        break
      }

      case 'tool_call': {
        const item = this.callItem(event.call)
        this.calls.set(item.id, item)
        this.emit({item, type: 'item_started'})
        break
      }

      case 'tool_result': {
        const started = this.calls.get(event.call.id) ?? this.callItem(event.call)
        this.calls.delete(started.id)
        this.emit({item: completed(started, event.result), type: 'item_completed'})
        const {details, is_error: failed} = event.result
        if (details?.kind === 'todo' && !failed)
          this.emit({item: {id: this.nextId('todo'), todos: details.todos, type: 'todo_list'}, type: 'item_completed'})
        break
      }

      default: {
        break
      }
    }
  }

  compacting(start: CompactionStart): void {
    this.finish()
    this.compaction = {...start, id: this.nextId('compaction')}
    this.emit({item: {...this.compaction, status: 'running', type: 'compaction'}, type: 'item_started'})
  }

  compacted(result: CompactionResult): void {
    const started = this.compaction
    this.compaction = undefined
    if (result.strategy === 'none' || !started) return
    const item = {
      ...started,
      compactedCount: result.compacted_count,
      compactedTokens: result.compacted_tokens,
      kept: result.kept,
      status: 'completed',
      strategy: result.strategy,
      tokensSaved: result.tokens_saved,
      type: 'compaction',
      ...(result.fallback_reason === undefined ? {} : {fallbackReason: result.fallback_reason}),
    } as const
    this.emit({item, type: 'item_completed'})
  }

  /** The error that ends the run, just before it is thrown. */
  failed(error: unknown): void {
    this.finish()
    this.emit({
      item: {id: this.nextId('error'), message: error instanceof Error ? error.message : String(error), type: 'error'},
      type: 'item_completed',
    })
  }

  /** The reply's text is complete (a call follows, a new request starts, the run ends). */
  finish(): void {
    if (!this.message) return
    this.emit({item: {...this.message, type: 'message'}, type: 'item_completed'})
    this.message = undefined
  }

  private callItem(call: ToolCallRequest): CallItem {
    const said = this.describe?.(call.name, call.input)
    const kind = said?.kind ?? 'other'
    const base = {
      id: call.id,
      input: call.input,
      kind,
      name: call.name,
      status: 'running',
      title: said?.title ?? JSON.stringify(call.input),
    } as const
    if (said?.subject?.kind === 'command' && kind === 'execute')
      return {...base, command: said.subject.command, type: 'command_execution'}
    if (kind === 'edit') return {...base, locations: [...(said?.locations ?? [])], type: 'file_change'}
    return {...base, type: 'tool_call'}
  }

  private nextId(prefix: string): string {
    return `${prefix}-${++this.count}`
  }
}

function completed(item: CallItem, result: ToolResult): CallItem {
  const done = {...item, result, status: result.is_error ? 'failed' : 'completed'} as const
  const {details} = result
  if (done.type === 'command_execution' && details?.kind === 'execute') return {...done, exitCode: details.exitCode}
  if (done.type === 'file_change' && details?.kind === 'edit') return {...done, files: details.files}
  return done
}
