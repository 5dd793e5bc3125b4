import type {ElicitationAnswer, ElicitationSchema, HostContext} from '@hanzo-dev/sdk'
import type {ElicitRequest, ElicitResult} from '@modelcontextprotocol/sdk/types.js'
import type {JsonSchemaType} from '@modelcontextprotocol/sdk/validation/types.js'

import {untilAborted} from './call-signal.js'

/**
 * A server's `elicitation/create`: put to the user through the host, the answer checked against
 * the form's schema before the server sees it. Where no one can answer (a headless run), a
 * decline, and a notice naming the server so the user knows why its tool got no input.
 */
export async function answerElicitation(
  server: string,
  params: ElicitRequest['params'],
  host: Pick<HostContext, 'elicit'>,
  warn: (message: string) => void,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  if (!host.elicit) {
    warn(`MCP server "${server}" asked for input ("${params.message}"); declined: no one can answer in this run`)
    return {action: 'decline'}
  }

  if (params.mode === 'url') {
    const answer = await untilAborted(
      host.elicit({message: params.message, mode: 'url', server, signal, url: params.url}),
      signal,
    )
    return {action: answer.action}
  }

  const requestedSchema = params.requestedSchema as ElicitationSchema
  const answer = await untilAborted(
    host.elicit({message: params.message, mode: 'form', requestedSchema, server, signal}),
    signal,
  )
  if (answer.action !== 'accept') return {action: answer.action}
  const content = answer.content ?? {}
  const problem = await invalidAnswer(requestedSchema, content)
  if (problem) throw new Error(`the answer to MCP server "${server}" does not fit its form: ${problem}`)
  return {action: 'accept', content}
}

/** Why `content` does not fit `schema`, by the SDK's JSON Schema validator; undefined when it does. */
export async function invalidAnswer(
  schema: ElicitationSchema,
  content: NonNullable<ElicitationAnswer['content']>,
): Promise<string | undefined> {
  const {AjvJsonSchemaValidator} = await import('@modelcontextprotocol/sdk/validation/ajv')
  const result = new AjvJsonSchemaValidator().getValidator(schema as JsonSchemaType)(content)
  return result.valid ? undefined : result.errorMessage
}
