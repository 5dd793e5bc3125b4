import type {AgentEvent, CallItemBase, TurnItem as CoreItem} from '@hanzo-dev/sdk'

import {summarizeImages} from '../../core/agent/image-summary.js'
import type {NotificationParams, ServerNotification, TurnItem, Usage} from './protocol.js'

export type Notify = <N extends ServerNotification>(method: N, params: NotificationParams<N>) => void

/**
 * A turn's items, as the core builds them (TurnItem in the sdk), sent as the protocol's: the
 * model's text an `agent_message` (item/started, item/delta per chunk, item/completed with the
 * whole text); every kind of call a `tool_call` with what its tool says of it (kind, title) and
 * of its result (a command's exit code, the files an edit changed); a compaction and a changed
 * plan (`todo_list`) an item of their own, only completed. An error that ends the run has the `error` notification.
 */
export class TurnItems {
  private message?: string
  /** The model requests' usage so far: what a turn that fails reports. */
  readonly usage: Usage = {inputTokens: 0, outputTokens: 0}

  constructor(
    private readonly notify: Notify,
    private readonly turn: {sessionId: string; turnId: string},
  ) {}

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'item_started': {
        const item = this.item(event.item)
        if (event.item.type === 'message') this.message = item?.id
        if (item) this.notify('item/started', {...this.turn, item})
        break
      }

      case 'text_delta': {
        if (this.message) this.notify('item/delta', {...this.turn, itemId: this.message, text: event.text})
        break
      }

      case 'item_completed': {
        const item = this.item(event.item)
        if (event.item.type === 'message') this.message = undefined
        if (item) this.notify('item/completed', {...this.turn, item})
        break
      }

      case 'usage': {
        this.usage.inputTokens += event.usage.inputTokens
        this.usage.outputTokens += event.usage.outputTokens
        break
      }

      default: {
        break
      }
    }
  }

  /** The protocol's item; undefined for an error, which has its own notification. */
  private item(item: CoreItem): TurnItem | undefined {
    switch (item.type) {
      case 'message': {
        return {id: `${this.turn.turnId}-${item.id}`, text: item.text, type: 'agent_message'}
      }

      case 'compaction': {
        return {...item, id: `${this.turn.turnId}-${item.id}`}
      }

      case 'todo_list': {
        return {id: `${this.turn.turnId}-${item.id}`, todos: item.todos, type: 'todo_list'}
      }

      case 'error': {
        return undefined
      }

      default: {
        return callItem(item)
      }
    }
  }
}

function callItem(item: Extract<CoreItem, CallItemBase>): TurnItem {
  const {id, input, kind, name, result, title} = item
  const call = {id, input, kind, name, title, type: 'tool_call' as const}
  const done = result
    ? {
        ...call,
        result: {
          error: result.error,
          isError: result.is_error,
          output: result.output,
          ...summarizeImages(result.images),
        },
      }
    : call
  if (item.type === 'command_execution')
    return {...done, command: item.command, ...(item.exitCode === undefined ? {} : {exitCode: item.exitCode})}
  if (item.type === 'file_change' && item.files)
    return {
      ...done,
      files: item.files.map(({after, before, path}) => ({
        change: before === null ? 'added' : after === null ? 'deleted' : 'modified',
        path,
      })),
    }
  return done
}
