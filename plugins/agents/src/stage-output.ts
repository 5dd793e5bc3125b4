import {type Host, type OutputFormat, printable, type RunReport} from '@hanzo-dev/sdk'

import type {AgentSessionLike, StageRunResult} from './agent-session.js'
import type {AutoResult, StageObserver} from './stages.js'

const HEADINGS: Record<string, string> = {code: 'Code', plan: 'Plan', review: 'Review', solve: 'Solve'}

interface Streams {
  stdout: NodeJS.WriteStream
  stderr: NodeJS.WriteStream
}

/**
 * Renders stages with `hanzo-dev run`'s output, one RunOutput per stage: a single-stage command
 * (`plan`, `solve`, `code`, `agent`) prints exactly as `run` does. `auto` adds, in text, a heading
 * before each stage on stdout; in stream-json, `{"type":"stage"}` events around each stage's
 * own init ... result events; in json, one object at the end with every stage (auto-output.ts).
 */
export class StageOutput implements StageObserver {
  private current?: RunReport
  private stages = 0

  constructor(
    private readonly host: Host,
    private readonly sessionId: string,
    private readonly format: OutputFormat,
    private readonly streams: Streams,
    private readonly options: {headings: boolean; verbose?: boolean},
  ) {}

  async stageStart(stage: string, round: number, session: AgentSessionLike): Promise<void> {
    const {stdout} = this.streams
    if (this.options.headings && this.format === 'text')
      stdout.write(
        `${this.stages++ > 0 ? '\n' : ''}## ${HEADINGS[stage] ?? stage}${round > 1 ? ` (round ${round})` : ''}\n\n`,
      )
    if (this.options.headings && this.format === 'stream-json') this.line({event: 'start', round, stage, type: 'stage'})
    // In json, auto's stages go into its one object at the end: theirs are not printed.
    const format = this.options.headings && this.format === 'json' ? undefined : this.format
    this.current =
      format &&
      (await this.host.output.runReport(
        format,
        this.streams,
        {model: session.model, sessionId: session.id},
        {verbose: this.options.verbose},
      ))
    this.current?.start(session.tools, session.cwd)
  }

  event(event: Parameters<RunReport['event']>[0]): void {
    this.current?.event(event)
  }

  stageEnd(stage: string, round: number, result: StageRunResult): void {
    this.current?.finish(result, result.usageReport)
    if (this.options.headings && this.format === 'stream-json')
      this.line({event: 'end', round, stage, stop: result.stop, type: 'stage'})
  }

  fail(message: string): void {
    this.current?.fail(message)
  }

  /** `auto`'s end: which files changed and what the review concluded. */
  autoEnd(auto: AutoResult): void {
    const summary = autoSummary(auto, this.sessionId)
    if (this.format === 'json') this.streams.stdout.write(`${JSON.stringify(summary, null, 2)}\n`)
    else if (this.format === 'stream-json') this.line(summary)
    // File names and the reviewer's words: through the printer.
    else this.streams.stdout.write(`\n${printable(autoText(auto))}`)
  }

  private line(value: object): void {
    this.streams.stdout.write(`${JSON.stringify(value)}\n`)
  }
}

export function autoSummary(auto: AutoResult, sessionId: string) {
  return {
    files_changed: auto.changes.files,
    is_error: auto.stop !== 'completed' || auto.review?.verdict !== 'pass',
    review: auto.review ?? null,
    rounds: auto.rounds,
    session_id: sessionId,
    stages: auto.stages.map(({result, round, stage}) => ({
      num_turns: result.turns,
      result: result.finalOutput,
      round,
      stage,
      stop: result.stop,
    })),
    stop: auto.stop,
    type: 'auto_result',
  }
}

export function autoText(auto: AutoResult): string {
  const files =
    auto.changes.files.length === 0
      ? 'Files changed: none'
      : `Files changed:\n${auto.changes.files.map((f) => `  ${f}`).join('\n')}`
  const rounds = `${auto.rounds} code round${auto.rounds === 1 ? '' : 's'}`
  let review: string
  if (auto.stop !== 'completed') review = `Stopped: a stage ended with ${auto.stop} (${rounds})`
  else if (auto.review?.verdict === 'pass') review = `Review: passed (${rounds})`
  else if (auto.review?.verdict === 'fail')
    review = `Review: problems remain after ${rounds}${auto.review.problems.map((p) => `\n  - ${p}`).join('')}`
  else review = `Review: no verdict (the reviewer did not end with VERDICT: pass or fail; ${rounds})`
  return `## Result\n\n${files}\n${review}\n`
}
