import {randomUUID} from 'node:crypto'
import type {RunUsage, SessionUsage} from '@hanzo-dev/sdk'
import {isRecord} from '@hanzo-dev/sdk/settings'

import type {SessionEnvironment} from '../../core/agent/system-prompt.js'
import type {ApiClient, Message} from '../../core/agent/types.js'
import {UserError} from '../../core/errors.js'
import {meteredClient, SessionRecorder} from '../../core/sessions/recorder.js'
import {
  lastPlan,
  toLine,
  TRANSCRIPT_VERSION,
  type TranscriptLine,
  type UsageLine,
} from '../../core/sessions/transcript.js'
import {promptCount} from '../../core/sessions/prompts.js'
import {type Prices, sessionUsage, totalUsage, turnUsage, usageLines} from '../../core/sessions/usage.js'
import {type LoadedSession, SessionStore, TranscriptFile} from '../session-store.js'

export interface RecordingOptions {
  dataDir: string
  projectRoot: string
  cwd: string
  session?: {resume?: string; continue?: boolean; fork?: boolean; record?: boolean}
  warn(message: string): void
}

/** Where and with what a run ran: its line in the transcript. */
export interface RunFacts {
  model: string
  provider: string
  label?: string
  /** The agent's system prompt of this run. */
  instructions: string
  /** The conversation the run carries on (without the system message). */
  history: readonly Message[]
  /** Its conversation is not written to the transcript (a side question); its requests still are, and count. */
  unrecorded?: boolean
  /** What its requests count as, whatever run it happens in (ChildSessionOptions.kind). */
  kind?: 'sampling'
}

/** One run being recorded. */
export interface RecordedRun {
  recorder: SessionRecorder
  /** This run's requests, its total, and the session's. */
  usage(prices: Prices): RunUsage
  /** The run is over (ended or failed): the next one may record. */
  done(): void
}

/**
 * The saved session a session and its children write to: one transcript, one run after another
 * (docs/run-output.md, "Sessions"). A run that carries on the conversation the transcript holds
 * gets a plain `run` line; one with another conversation (a child's, a stage's) starts a new one
 * (`new_conversation`), so the transcript's conversation, the one `run --continue` carries on, is
 * always its last run's. Nothing is written before a run's prompt is on its way: a prompt a hook
 * stopped saves nothing. A run that starts while another is being recorded (a child run inside a
 * parent's tool call) is not recorded: interleaved, the two would make one broken conversation.
 * A fork is a new session whose header names the saved one it copies: its conversation is written
 * as a `history` line under that header, and the saved file is never opened for writing.
 */
export class SessionRecording {
  private transcript?: TranscriptFile
  /** The conversation the transcript holds now; undefined until its header is written. */
  private conversation?: readonly Message[]
  /** Every model request of the session so far: earlier processes', then each as it ends. */
  private readonly requests: UsageLine[]
  private busy = false
  /** Runs going on now, recorded or not: one that starts inside another is a subagent's. */
  private active = 0
  /** The session's runs recorded so far, earlier processes' too: the prompt a checkpoint is of. */
  private runs: number
  /** What the system prompt says of the machine and repository, for a new session's header. */
  private started?: SessionEnvironment

  private constructor(
    readonly id: string,
    private readonly path: string | undefined,
    private readonly saved: LoadedSession | undefined,
    private readonly options: RecordingOptions,
    /** The id of the saved session this one forks; its requests were that session's, not this one's. */
    private readonly forkedFrom?: string,
  ) {
    this.conversation = forkedFrom === undefined ? saved?.history : undefined
    this.requests = saved && forkedFrom === undefined ? usageLines(saved.transcript.lines) : []
    // A fork's prompts are its own: the checkpoints of the session it came from are not its.
    this.runs = saved && forkedFrom === undefined ? promptCount(saved.transcript.lines) : 0
  }

  /**
   * Finds the saved session `resume` or `continue` names (a wrong id is a UserError), or makes a
   * new one: with `fork`, a new one that starts from the saved one's conversation.
   */
  static async open(options: RecordingOptions): Promise<SessionRecording> {
    checkFork(options.session)
    const {fork, record} = options.session ?? {}
    const sessions = SessionStore.at(options.dataDir)
    const saved = await savedSession(sessions, options)
    const forkedFrom = fork ? saved?.transcript.header.id : undefined
    // The session whose file this one goes on writing: none for a fork.
    const carried = forkedFrom === undefined ? saved : undefined
    const id = carried?.transcript.header.id ?? randomUUID()
    const path = record === false ? undefined : (carried?.path ?? sessions.pathFor(options.projectRoot, id))
    return new SessionRecording(id, path, saved, options, forkedFrom)
  }

  /**
   * The environment for the system prompt: a saved session's own from its start (its git snapshot
   * says it is one) with today's date, so a run that carries it on sends the same prompt and hits
   * the prompt cache; read anew (`current`) for a new session or one carried on elsewhere.
   */
  environment(current: SessionEnvironment): SessionEnvironment {
    const saved = this.saved?.transcript.header.environment
    this.started = isEnvironment(saved) && saved.cwd === current.cwd ? {...saved, date: current.date} : current
    return this.started
  }

  /** Whether the session is saved (not `record: false`). */
  get persisted(): boolean {
    return this.path !== undefined
  }

  /** The prompt (1-based recorded run) going on or last taken; children's runs are part of their parent's. */
  get prompt(): number {
    return this.runs
  }

  /** The conversation of the saved session carried on (its last run's); empty for a new one. */
  get history(): readonly Message[] {
    return this.saved?.history ?? []
  }

  begin(run: RunFacts): RecordedRun {
    const write = this.busy || !this.path || run.unrecorded ? undefined : this.start(run)
    this.busy ||= write !== undefined
    const kind = run.kind ?? (this.active > 0 ? 'subagent' : run.unrecorded ? 'command' : undefined)
    this.active++
    const recorder = new SessionRecorder({
      count: (line) => this.count(line, run),
      history: write && this.conversation && same(this.conversation, run.history) ? this.conversation : [],
      instructions: run.instructions,
      ...(kind === undefined ? {} : {kind}),
      now: () => new Date(),
      provider: run.provider,
      write: write ?? (() => {}),
    })
    return {
      done: () => {
        this.active--
        if (!write) return
        this.conversation = recorder.conversation
        this.busy = false
      },
      recorder,
      usage: (prices) => ({
        run: totalUsage(recorder.requests, prices),
        session: totalUsage(this.requests, prices),
        turns: turnUsage(recorder.requests, prices),
      }),
    }
  }

  /**
   * `client` for a compaction's summary outside any run (`compact`): counted and saved as a run's
   * requests are, with turn 0.
   */
  metered(client: ApiClient, run: Pick<RunFacts, 'model' | 'provider'>): ApiClient {
    return meteredClient(client, (request) =>
      this.count(
        {at: new Date().toISOString(), ...request, kind: 'compaction', provider: run.provider, turn: 0, type: 'usage'},
        run,
      ),
    )
  }

  /** Every request of the session, priced. */
  usage(prices: Prices): SessionUsage {
    return sessionUsage(this.requests, prices)
  }

  close(): void {
    this.transcript?.close()
  }

  /**
   * A request made: it counts in the session's usage and is saved, also for a run whose
   * conversation is not (a side question): the saved session's cost is every request's.
   */
  private count(line: UsageLine, run: Pick<RunFacts, 'model' | 'provider'>): void {
    this.requests.push(line)
    if (!this.path) return
    // Not the side question's label: the header's is the first recorded run's stage.
    if (this.conversation === undefined) this.header({model: run.model, provider: run.provider})
    this.file().append(line)
  }

  /** Writes the run's first line (the header for a new session) and returns the writer of its others. */
  private start(run: RunFacts): (line: TranscriptLine) => void {
    this.runs++
    if (this.conversation === undefined) {
      this.header(run)
    } else {
      const label = run.label === undefined ? {} : {label: run.label}
      const fresh = same(this.conversation, run.history) ? {} : {new_conversation: true as const}
      const {cwd} = this.options
      const at = new Date().toISOString()
      this.file().append({at, cwd, model: run.model, provider: run.provider, type: 'run', ...label, ...fresh})
    }

    const transcript = this.file()
    return (line) => transcript.append(line)
  }

  /** Opened on the first line written: a session that never asks the model leaves no file. */
  private file(): TranscriptFile {
    this.transcript ??= new TranscriptFile(this.path!, this.options.warn)
    return this.transcript
  }

  /** The new session's first line: from here on it is saved, with an empty conversation (a fork's: the copied one). */
  private header(run: Pick<RunFacts, 'label' | 'model' | 'provider'>): void {
    const {cwd, projectRoot} = this.options
    this.file().append({
      created_at: new Date().toISOString(),
      cwd,
      id: this.id,
      model: run.model,
      project_root: projectRoot,
      provider: run.provider,
      type: 'session',
      version: TRANSCRIPT_VERSION,
      ...(run.label === undefined ? {} : {label: run.label}),
      ...(this.forkedFrom === undefined ? {} : {forked_from: this.forkedFrom}),
      ...(this.started === undefined ? {} : {environment: this.started}),
    })
    this.conversation = []
    if (this.forkedFrom === undefined || !this.saved) return
    const at = new Date().toISOString()
    const messages = this.saved.history.map((message) => toLine(message))
    this.file().append({at, cause: 'forked', messages, type: 'history'})
    // The plan goes with the conversation: a later --continue of the fork shows it as the original's would.
    const todos = lastPlan(this.saved.transcript.lines)
    if (todos.length > 0) this.file().append({at, todos, type: 'todos'})
    this.conversation = this.saved.history
  }
}

/** A fork names the saved session it copies; a UserError otherwise (also for a command to say before it starts). */
export function checkFork(session: RecordingOptions['session']): void {
  if (session?.fork && session.resume === undefined && !session.continue)
    throw new UserError('A fork needs the session to fork: --fork-session goes with --resume ID or --continue', {
      exitCode: 2,
      hint: 'hanzo-dev sessions list shows the sessions of this project',
    })
}

/** A header's environment as written (a file edited by hand may hold anything). */
function isEnvironment(value: unknown): value is SessionEnvironment {
  if (!isRecord(value) || !['cwd', 'date', 'os', 'shell'].every((key) => typeof value[key] === 'string')) return false
  const {git} = value
  return (
    git === undefined ||
    (isRecord(git) &&
      typeof git.root === 'string' &&
      typeof git.branch === 'string' &&
      typeof git.more === 'number' &&
      Array.isArray(git.status) &&
      git.status.every((line) => typeof line === 'string'))
  )
}

/** The same conversation: the session's own messages are the recorded ones, or equal copies. */
function same(a: readonly Message[], b: readonly Message[]): boolean {
  return (
    a.length === b.length &&
    a.every((message, index) => message === b[index] || JSON.stringify(message) === JSON.stringify(b[index]))
  )
}

/** The saved session `resume` or `continue` names, loaded; none for a new session. */
async function savedSession(sessions: SessionStore, options: RecordingOptions): Promise<LoadedSession | undefined> {
  const choice = options.session ?? {}
  const found = await sessions.chosen(choice, options.projectRoot)
  if (!found) {
    if (!choice.continue) return undefined
    throw new UserError(`No saved session in ${options.projectRoot} to continue`, {
      hint: 'hanzo-dev sessions list --all shows the sessions of every project; hanzo-dev run --resume ID carries on one of them',
    })
  }

  const session = await sessions.load(found.path)
  const lines = session.transcript.skipped.map((skipped) => skipped.line)
  if (lines.length > 0)
    options.warn(
      `session ${found.id}: skipped line ${lines.join(', ')} of its transcript, cut short by a kill or not readable`,
    )
  return session
}
