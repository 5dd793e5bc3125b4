import {oneLine, printable} from '@hanzo-dev/sdk/terminal-text'
import type {RequestKind} from '@hanzo-dev/sdk'

import {todoLine, todoProgress} from '../agent/todo-line.js'
import type {ParsedTranscript} from './parse.js'
import type {SessionSummary} from './summary.js'
import type {SavedToolCall, TranscriptLine} from './transcript.js'
import type {KindUsage, ModelUsage, SessionUsage, UsageTotals} from './usage.js'

export type ListedSession = SessionSummary & {updated_at: string}

/** `sessions list`: one row per session, newest first; the project column only across projects. */
export function renderSessionList(sessions: readonly ListedSession[], options: {allProjects: boolean}): string[] {
  const rows = sessions.map((s) => [
    s.id.slice(0, 8),
    localTime(s.updated_at),
    String(s.turns),
    `${compact(s.usage.input_tokens)}/${compact(s.usage.output_tokens)}`,
    s.usage.cost_usd === undefined ? '-' : formatUsd(s.usage.cost_usd),
    s.model,
    ...(options.allProjects ? [s.project_root] : []),
    excerpt(s.first_prompt ?? '', 60),
  ])
  const head = [
    'ID',
    'UPDATED',
    'TURNS',
    'TOKENS IN/OUT',
    'COST',
    'MODEL',
    ...(options.allProjects ? ['PROJECT'] : []),
    'PROMPT',
  ]
  return table([head, ...rows])
}

/** `sessions show`: the summary, then the conversation as it went, run by run. */
export function renderSession(summary: SessionSummary, {header, lines, skipped}: ParsedTranscript): string[] {
  const out = [
    `Session   ${summary.id}`,
    `Project   ${summary.project_root}`,
    `Started   ${localTime(summary.created_at)} · ${plural(summary.runs, 'run')} · ${plural(summary.turns, 'model request')}`,
    `Model     ${summary.model} (${summary.provider})`,
    `Usage     ${usageSummary(summary.usage)}`,
    ...(header.forked_from === undefined ? [] : [`Forked    from ${header.forked_from}`]),
  ]
  if (skipped.length > 0)
    out.push(
      `Skipped   ${skipped.map((s) => `line ${s.line} (${s.reason === 'torn' ? 'cut short by a kill' : 'not readable'})`).join(', ')}`,
    )
  out.push('')
  // The first run has no line of its own: a stage's name (its label) heads it.
  if (header.label !== undefined) out.push(`── ${runName(1, header.label)}`)
  let run = 1
  const nextRun = () => ++run
  for (const [index, line] of lines.entries()) {
    // A fork's copy of the conversation it started from: shown as that conversation, not as a compaction.
    if (index === 0 && header.forked_from !== undefined && line.type === 'history')
      out.push(
        `── the conversation of session ${header.forked_from}, copied`,
        ...line.messages.flatMap((message) => renderLine(message, nextRun)),
        `── forked`,
      )
    else out.push(...renderLine(line, nextRun))
  }
  // Every line holds text from the model, a tool or the file: shown, never obeyed by the terminal.
  return out.map((line) => printable(line))
}

function renderLine(line: TranscriptLine, nextRun: () => number): string[] {
  switch (line.type) {
    case 'run': {
      const fresh = line.new_conversation ? ' · a new conversation' : ''
      return ['', `── ${runName(nextRun(), line.label)} · ${localTime(line.at)} · ${line.model} · ${line.cwd}${fresh}`]
    }

    case 'user': {
      return [`> ${line.content.replaceAll('\n', '\n  ')}`]
    }

    case 'assistant': {
      return [
        ...(line.content ? [line.content] : []),
        ...line.tool_calls.map((call) => `⏺ ${[call.name, argumentsSubject(call)].filter(Boolean).join(' ')}`),
      ]
    }

    case 'tool_result': {
      return [`  ↳ ${line.is_error ? 'error: ' : ''}${excerpt(line.content, 120)}`]
    }

    case 'todos': {
      return [`── the plan: ${todoProgress(line.todos)}`, ...line.todos.map((todo) => `  ${todoLine(todo)}`)]
    }

    case 'history': {
      return [
        `── the conversation continues from here as ${plural(line.messages.length, 'message')} (${line.cause ?? 'compacted'})`,
      ]
    }

    case 'end': {
      return [
        `── ${line.stop}${line.error ? `: ${line.error}` : ''} · ${plural(line.turns, 'turn')} · ${usageSummary(line.usage)}`,
      ]
    }

    default: {
      return []
    }
  }
}

/** `run 2`, or with the stage a command with stages gave it, `run 2 · review`. */
function runName(run: number, label: string | undefined): string {
  return label === undefined ? `run ${run}` : `run ${run} · ${label}`
}

/** A tool call's input in one short line: the command or path when there is one. */
export function callSubject(input: Record<string, unknown>): string {
  const subject = input.command ?? input.path ?? input.pattern
  const text = typeof subject === 'string' ? subject : Object.keys(input).length > 0 ? JSON.stringify(input) : ''
  return firstLine(text).slice(0, 120)
}

export function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]
  return line.length < text.length ? `${line} …` : line
}

/** Cents from a dollar up; below, two significant digits (a short run costs fractions of a cent). */
export function formatUsd(cost: number): string {
  return `$${cost >= 1 || cost === 0 ? cost.toFixed(2) : cost.toPrecision(2)}`
}

/** Tokens (in, of which cached, out) and dollars when priced, on one line: `sessions show`, `/cost`, run's end line. */
export function usageSummary(totals: UsageTotals): string {
  const {cache_read_tokens: read, cache_write_tokens: write} = totals
  const cache = [
    ...(read ? [`${read.toLocaleString('en-US')} cached`] : []),
    ...(write ? [`${write.toLocaleString('en-US')} written to the cache`] : []),
  ]
  const input = `${totals.input_tokens.toLocaleString('en-US')} in${cache.length > 0 ? ` (${cache.join(', ')})` : ''}`
  const tokens = `${input} · ${totals.output_tokens.toLocaleString('en-US')} out`
  return totals.cost_usd === undefined ? tokens : `${tokens} · ${formatUsd(totals.cost_usd)}`
}

/**
 * `/cost`: the session's tokens and price, by model when it used more than one; where each price
 * comes from, and how to price a model that has none.
 */
export function renderCost(session: SessionUsage): string[] {
  if (session.requests === 0) return ['No model requests in this session yet.']
  const [only] = session.models
  if (session.models.length === 1)
    return [`${only.model}: ${modelCost(only)}`, ...kindLines(session.kinds), ...unpricedHint(session.models)]
  const priced = session.models.filter((model) => model.cost_usd !== undefined)
  const partial =
    session.cost_usd === undefined && priced.length > 0
      ? ` · ${formatUsd(priced.reduce((total, model) => total + model.cost_usd!, 0))} for the priced models`
      : ''
  return [
    `${plural(session.requests, 'model request')} · ${usageSummary(session)}${partial}`,
    ...session.models.map((model) => `  ${model.model}: ${modelCost(model)}`),
    ...kindLines(session.kinds),
    ...unpricedHint(session.models),
  ]
}

const KIND_NAMES: Record<RequestKind, string> = {
  command: 'commands',
  compaction: 'compaction',
  sampling: 'MCP sampling',
  subagent: 'subagents',
  turn: 'turns',
}

/** What asked the model, when it was not only the runs' turns: the side requests are part of the cost. */
function kindLines(kinds: readonly KindUsage[] = []): string[] {
  if (kinds.length === 0) return []
  return [
    'By kind:',
    ...kinds.map(
      (kind) =>
        `  ${KIND_NAMES[kind.kind]}: ${plural(kind.requests, 'request')} · ${usageSummary(kind)}${kind.cost_usd === undefined ? ' · price unknown' : ''}`,
    ),
  ]
}

function modelCost(model: ModelUsage): string {
  const tokens = `${plural(model.requests, 'request')} · ${usageSummary(model)}`
  if (model.cost_usd === undefined) return `${tokens} · price unknown`
  return `${tokens} (${model.price === 'setting' ? 'your pricing setting' : 'catalog price'})`
}

function unpricedHint(models: readonly ModelUsage[]): string[] {
  const unpriced = models.filter((model) => model.cost_usd === undefined)
  if (unpriced.length === 0) return []
  return [
    `No price is known for ${unpriced.map((model) => model.model).join(', ')}: give one in USD per million tokens, as in`,
    `  hanzo-dev config set pricing.${unpriced[0].model} '{"input": 3, "output": 15}'`,
  ]
}

/** Arguments that are not a JSON object are shown as the model sent them. */
function argumentsSubject(call: SavedToolCall): string {
  try {
    const input: unknown = JSON.parse(call.arguments)
    if (typeof input === 'object' && input !== null && !Array.isArray(input))
      return callSubject(input as Record<string, unknown>)
  } catch {
    // Shown raw, below.
  }

  return firstLine(call.arguments).slice(0, 120)
}

function excerpt(text: string, width: number): string {
  const flat = text.replaceAll(/\s+/g, ' ').trim()
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat
}

function compact(tokens: number): string {
  if (tokens < 1000) return String(tokens)
  return tokens < 1e6 ? `${(tokens / 1000).toFixed(1)}k` : `${(tokens / 1e6).toFixed(1)}M`
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`
}

/** `2025-01-31 14:03` in the local time zone. */
function localTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const two = (n: number) => String(n).padStart(2, '0')
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`
}

/** Cells on one line each, made safe for the terminal (a prompt, a model name, a path) before they are measured. */
function table(cells: readonly string[][]): string[] {
  const rows = cells.map((row) => row.map((cell) => oneLine(cell, Number.POSITIVE_INFINITY)))
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)))
  return rows.map((row) =>
    row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]))).join('  '),
  )
}
