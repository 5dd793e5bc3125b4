import type {AgentEvent} from '@hanzo-dev/sdk'

import type {NotificationParams, ServerNotification, TurnItem, Usage} from './protocol.js'

export type Notify = <N extends ServerNotification>(method: N, params: NotificationParams<N>) => void

/**
 * A turn's agent events as the protocol's items: the model's text is an `agent_message` item
 * (item/started, item/delta per chunk, item/completed with the whole text), ended by the next
 * tool call or the end of the turn; each tool call is a `tool_call` item, started when the model
 * asks for it and completed with its result.
 */
export class TurnItems {
  private message?: {id: string; text: string}
  private messages = 0
  private readonly calls = new Map<string, Extract<TurnItem, {type: 'tool_call'}>>()
  /** The model requests' usage so far: what a turn that fails reports. */
  readonly usage: Usage = {inputTokens: 0, outputTokens: 0}

  constructor(
    private readonly notify: Notify,
    private readonly turn: {sessionId: string; turnId: string},
  ) {}

  onEvent(event: AgentEvent): void {
    switch (event.type) {
      case 'text_delta': {
        if (!this.message) {
          this.message = {id: `${this.turn.turnId}-msg-${++this.messages}`, text: ''}
          this.notify('item/started', {...this.turn, item: {id: this.message.id, text: '', type: 'agent_message'}})
        }

        this.message.text += event.text
        this.notify('item/delta', {...this.turn, itemId: this.message.id, text: event.text})
        break
      }

      case 'tool_call': {
        this.endMessage()
        const item = {id: event.call.id, input: event.call.input, name: event.call.name, type: 'tool_call' as const}
        this.calls.set(item.id, item)
        this.notify('item/started', {...this.turn, item})
        break
      }

      case 'tool_result': {
        const item = this.calls.get(event.call.id) ?? {id: event.call.id, input: event.call.input, name: event.call.name, type: 'tool_call' as const}
        this.calls.delete(item.id)
        const {error, is_error: isError, output} = event.result
        this.notify('item/completed', {...this.turn, item: {...item, result: {error, isError, output}}})
        break
      }

      case 'usage': {
        this.usage.inputTokens += event.usage.inputTokens
        this.usage.outputTokens += event.usage.outputTokens
        break
      }

      case 'turn_start': {
        // A model request begins: the text of the one before is complete.
        this.endMessage()
        break
      }
    }
  }

  /** The turn is over: the message being written is complete. */
  finish(): void {
    this.endMessage()
  }

  private endMessage(): void {
    if (!this.message) return
    this.notify('item/completed', {...this.turn, item: {id: this.message.id, text: this.message.text, type: 'agent_message'}})
    this.message = undefined
  }
}
