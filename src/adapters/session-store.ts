import {createHash} from 'node:crypto'
import {closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync} from 'node:fs'
import {readdir, readFile, rmdir, stat, unlink} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'

import type {Message} from '../core/agent/types.js'
import {UserError} from '../core/errors.js'
import {repairHistory} from '../core/agent/history-repair.js'
import {conversationLines} from '../core/sessions/history.js'
import {type ParsedTranscript, parseTranscript, TranscriptError} from '../core/sessions/parse.js'
import type {MessageLine, TranscriptLine} from '../core/sessions/transcript.js'
import {toolCallRequest} from './api/tool-call.js'

const SUFFIX = '.jsonl'
/** Session ids are UUIDs; a unique prefix of at least 4 characters names one too, as git's short hashes. */
const ID_PREFIX = /^[\da-f-]{1,36}$/i
const MIN_PREFIX = 4
const FIND_HINT = 'hanzo-dev sessions list shows the sessions of this project, with --all of every project'

export interface StoredSession {
  id: string
  path: string
  modified: Date
}

export interface LoadedSession {
  path: string
  transcript: ParsedTranscript
  /** The conversation to carry on with, as the model last saw it. */
  history: Message[]
}

/**
 * Saved sessions in the user's data dir, never in the repository:
 * `<dataDir>/sessions/<project>/<id>.jsonl`, one directory per project (its root's name and a
 * hash of its path), so the latest session of a project is found from file times alone. The
 * directories are 0700 and the files 0600: transcripts hold prompts and tool output.
 */
/** What `--resume ID` and `--continue` ask for. */
export interface SessionChoice {
  resume?: string
  continue?: boolean
}

export class SessionStore {
  constructor(private readonly dir: string) {}

  static at(dataDir: string): SessionStore {
    return new SessionStore(join(dataDir, 'sessions'))
  }

  pathFor(projectRoot: string, id: string): string {
    return join(this.dir, projectKey(projectRoot), `${id}${SUFFIX}`)
  }

  /** Newest (last written) first; every project's when `projectRoot` is absent. */
  async list(projectRoot?: string): Promise<StoredSession[]> {
    const projects = projectRoot === undefined ? await names(this.dir) : [projectKey(projectRoot)]
    const sessions = await Promise.all(projects.map((project) => this.inProject(join(this.dir, project))))
    return sessions.flat().sort((a, b) => b.modified.getTime() - a.modified.getTime())
  }

  async latest(projectRoot: string): Promise<StoredSession | undefined> {
    return (await this.list(projectRoot))[0]
  }

  /**
   * The saved session `--resume ID` or `--continue` (the project's latest) names: the one every
   * command carries on, so they all mean the same. A wrong id is a UserError; undefined when
   * neither is given, or the project has no session to continue.
   */
  async chosen(choice: SessionChoice, projectRoot: string): Promise<StoredSession | undefined> {
    if (choice.resume !== undefined) return this.find(choice.resume)
    return choice.continue ? this.latest(projectRoot) : undefined
  }

  /** The session with this id, or the only one whose id starts with it. */
  async find(id: string): Promise<StoredSession> {
    if (!ID_PREFIX.test(id)) throw new UserError(`"${id}" is not a session id`, {exitCode: 2, hint: FIND_HINT})
    if (id.length < MIN_PREFIX)
      throw new UserError(`"${id}" is too short: give at least ${MIN_PREFIX} characters of the session id`, {
        exitCode: 2,
        hint: FIND_HINT,
      })
    const wanted = id.toLowerCase()
    const matches = (await this.list()).filter((session) => session.id.startsWith(wanted))
    const exact = matches.find((session) => session.id === wanted)
    if (exact) return exact
    if (matches.length === 0) throw new UserError(`No saved session ${id}`, {hint: FIND_HINT})
    if (matches.length > 1) {
      throw new UserError(`${id} could be any of ${matches.length} sessions: ${matches.map((s) => s.id).join(', ')}`, {
        hint: 'give more of the id',
      })
    }

    return matches[0]
  }

  /** A session with this id (or start of one) is saved: a session is once its first prompt is sent. */
  async has(id: string): Promise<boolean> {
    return this.find(id).then(
      () => true,
      () => false,
    )
  }

  async read(path: string): Promise<ParsedTranscript> {
    try {
      return parseTranscript(await readFile(path, 'utf8'))
    } catch (error) {
      if (!(error instanceof TranscriptError)) throw error
      throw new UserError(`Cannot read the session ${path}: ${error.message}`)
    }
  }

  /** The transcript, and the conversation to carry it on with. */
  async load(path: string): Promise<LoadedSession> {
    const transcript = await this.read(path)
    const history = repairHistory(conversationLines(transcript.lines).map((line) => toMessage(line)))
    return {history, path, transcript}
  }

  /** Removes the file, and the project's directory once it holds no session. */
  async delete(session: StoredSession): Promise<void> {
    await unlink(session.path)
    await rmdir(dirname(session.path)).catch(() => {})
  }

  private async inProject(dir: string): Promise<StoredSession[]> {
    const files = (await names(dir)).filter((name) => name.endsWith(SUFFIX))
    const found = await Promise.all(
      files.map(async (name) => {
        const path = join(dir, name)
        // Deleted since the directory was read: not a session any more.
        const info = await stat(path).catch(() => undefined)
        return info?.isFile() ? {id: basename(name, SUFFIX), modified: info.mtime, path} : undefined
      }),
    )
    return found.filter((session) => session !== undefined)
  }
}

/**
 * A transcript open for appending. Each line is one write to a file opened O_APPEND, so a kill
 * loses at most the line being written, and lines are never interleaved. Writes are
 * synchronous: a line is on disk before the run goes on, also when the process exits right
 * after (a second Ctrl-C). A write that fails never ends the run: the first failure calls
 * `onWarning`, later ones are silent (one broken disk, one warning).
 */
export class TranscriptFile {
  private fd?: number
  private failed = false

  constructor(
    private readonly path: string,
    private readonly onWarning: (message: string) => void,
  ) {}

  append(line: TranscriptLine): void {
    if (this.failed) return
    try {
      this.fd ??= this.open()
      let data = Buffer.from(`${JSON.stringify(line)}\n`)
      while (data.length > 0) data = data.subarray(writeSync(this.fd, data))
    } catch (error) {
      this.failed = true
      this.onWarning(`could not save the session to ${this.path}: ${(error as Error).message}`)
    }
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd)
    this.fd = undefined
  }

  /** A torn last line (a kill during its write) is ended first, so the next line is whole. */
  private open(): number {
    mkdirSync(dirname(this.path), {mode: 0o700, recursive: true})
    const fd = openSync(this.path, 'a+', 0o600)
    const {size} = fstatSync(fd)
    const last = Buffer.alloc(1)
    if (size > 0 && readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 0x0a) writeSync(fd, '\n')
    return fd
  }
}

/** `<root's name>-<12 hex of its path's SHA-256>`: readable, and unique per path. */
export function projectKey(projectRoot: string): string {
  const name =
    basename(projectRoot)
      .replaceAll(/[^\w.-]/g, '-')
      .slice(0, 40) || 'root'
  return `${name}-${createHash('sha256').update(projectRoot).digest('hex').slice(0, 12)}`
}

function toMessage(line: MessageLine): Message {
  switch (line.type) {
    case 'system': {
      return {content: line.content, role: line.type}
    }

    case 'user': {
      return {content: line.content, role: 'user', ...(line.images && {images: line.images})}
    }

    case 'assistant': {
      const toolCalls = line.tool_calls.map((call) => toolCallRequest(call.id, call.name, call.arguments))
      return {content: line.content, role: 'assistant', toolCalls, ...(line.reasoning && {reasoning: line.reasoning})}
    }

    case 'tool_result': {
      return {
        content: line.content,
        isError: line.is_error,
        role: 'tool',
        toolCallId: line.tool_call_id,
        toolName: line.tool_name,
        ...(line.images && {images: line.images}),
      }
    }
  }
}

async function names(dir: string): Promise<string[]> {
  return readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
}
