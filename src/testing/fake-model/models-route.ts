import type {IncomingHttpHeaders} from 'node:http'

import {anthropicFormat} from './anthropic-format.js'
import {chatFormat} from './chat-format.js'
import type {ListedModel, Script} from './script.js'
import {scriptedStatus} from './script-cursor.js'
import {httpErrorBody} from './wire-format.js'

/** An answer ready to send. */
export interface ModelsAnswer {
  status: number
  headers: Record<string, string>
  text: string
}

/** Anthropic's page size when the request names none, and the most it allows. */
const ANTHROPIC_DEFAULT_LIMIT = 20
const ANTHROPIC_MAX_LIMIT = 1000

/**
 * `GET /v1/models`: the script's `models` (default: its one model) as OpenAI lists them
 * (`{"object": "list", "data": [...]}`), or, to a request carrying `anthropic-version`, as
 * Anthropic does: newest first, a page of `limit` (default 20) after `after_id`, with
 * `has_more`, `first_id` and `last_id`, so clients' pagination runs as against the real API.
 * A scripted HTTP error is sent in the asking API's error shape.
 */
export function modelsAnswer(script: Script, url: URL, headers: IncomingHttpHeaders): ModelsAnswer {
  const anthropic = headers['anthropic-version'] !== undefined
  const listed = script.models ?? [script.model ?? 'fake-model']
  if (!Array.isArray(listed)) {
    const outcome = scriptedStatus(listed)
    const {contentType, text} = httpErrorBody(anthropic ? anthropicFormat : chatFormat, outcome.status, outcome.body)
    return {headers: {'content-type': contentType, ...outcome.headers}, status: outcome.status, text}
  }

  const models = listed.map((entry) => (typeof entry === 'string' ? {id: entry} : entry))
  if (!anthropic) {
    const data = models.map((m) => ({
      created: m.created ?? 0,
      id: m.id,
      object: 'model',
      owned_by: m.owned_by ?? 'fake-model',
      ...(m.context_window !== undefined && {context_window: m.context_window}),
    }))
    return json(200, {data, object: 'list'})
  }

  return json(200, anthropicPage(models, url.searchParams))
}

function anthropicPage(models: Exclude<ListedModel, string>[], query: URLSearchParams) {
  const newestFirst = models.toSorted((a, b) => (b.created ?? 0) - (a.created ?? 0))
  const limit = Math.min(
    Number(query.get('limit') ?? ANTHROPIC_DEFAULT_LIMIT) || ANTHROPIC_DEFAULT_LIMIT,
    ANTHROPIC_MAX_LIMIT,
  )
  const after = query.get('after_id')
  const start = after === null ? 0 : newestFirst.findIndex((m) => m.id === after) + 1
  const page = newestFirst.slice(start, start + limit)
  return {
    data: page.map((m) => ({
      created_at: new Date((m.created ?? 0) * 1000).toISOString(),
      display_name: m.id,
      id: m.id,
      type: 'model',
    })),
    first_id: page[0]?.id ?? null,
    has_more: start + limit < newestFirst.length,
    last_id: page.at(-1)?.id ?? null,
  }
}

function json(status: number, body: unknown): ModelsAnswer {
  return {headers: {'content-type': 'application/json'}, status, text: JSON.stringify(body)}
}
