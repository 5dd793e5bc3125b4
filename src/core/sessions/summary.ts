import type {ParsedTranscript} from './parse.js'
import type {RunStop, TranscriptLine, UsageLine} from './transcript.js'
import {type Prices, totalUsage, type UsageTotals, usageLines} from './usage.js'

/** A session at a glance (`sessions list`, the top of `sessions show`). */
export interface SessionSummary {
  id: string
  project_root: string
  created_at: string
  /** The model and provider of the latest run. */
  model: string
  provider: string
  /** Runs of the session: the first, then one per `--continue` / `--resume`. */
  runs: number
  /** Model requests, all runs together. */
  turns: number
  first_prompt?: string
  /** How the latest run ended; absent while it runs, or when it was killed. */
  last_stop?: RunStop
  /** The session this one was forked from. */
  forked_from?: string
  usage: UsageTotals
}

export function summarize({header, lines}: ParsedTranscript, prices: Prices): SessionSummary {
  let {model, provider} = header
  let runs = 1
  let firstPrompt: string | undefined
  let lastStop: RunStop | undefined
  for (const line of lines) {
    if (line.type === 'run') {
      ;({model, provider} = line)
      runs++
      lastStop = undefined
    } else if (line.type === 'user') {
      firstPrompt ??= line.content
    } else if (line.type === 'end') {
      lastStop = line.stop
    }
  }

  const requests = usageLines(lines)
  return {
    created_at: header.created_at,
    first_prompt: firstPrompt,
    ...(header.forked_from === undefined ? {} : {forked_from: header.forked_from}),
    id: header.id,
    last_stop: lastStop,
    model,
    project_root: header.project_root,
    provider,
    runs,
    turns: requests.length,
    usage: totalUsage(requests, prices),
  }
}

/** Each model request with the run it was made in (1 = the first). */
export function requestsByRun(lines: readonly TranscriptLine[]): Array<UsageLine & {run: number}> {
  let run = 1
  const requests: Array<UsageLine & {run: number}> = []
  for (const line of lines) {
    if (line.type === 'run') run++
    else if (line.type === 'usage') requests.push({...line, run})
  }

  return requests
}
