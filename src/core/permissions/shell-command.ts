/**
 * Cuts a shell command line into the simple commands a permission pattern is matched against,
 * and says what in it no pattern can vouch for (the CVE-2025-54795 class: an allow rule
 * `exec(git status*)` must not allow `git status; rm -rf ~`).
 *
 * How the permission rules use it (rule-pattern.ts):
 * - an `allow` or `prompt` rule with an argument pattern covers a command line only when every
 *   simple command matches the pattern and there are no hazards at all;
 * - a `deny` rule with an argument pattern matches when any simple command matches it (also the
 *   ones found inside `$(...)`, best effort), or the whole line does.
 *
 * What it reads, as bash and POSIX sh do:
 * - separators `;`, `&&`, `||`, `|`, `&`, newlines, and the parentheses of subshells;
 * - quotes: '...' (no escapes), "..." (backslash escapes only $ ` " \ and newline),
 *   $'...' (backslash escapes), backslash outside quotes, backslash-newline continuations;
 * - `#` at the start of a word comments out the rest of the line (an unbalanced quote in a
 *   comment must not make the next line look quoted);
 * - `${...}` is one piece of a word; its body may hold anything but quotes, `$`, backticks
 *   and backslashes, which make it a hazard (bash and dash disagree on quotes inside it).
 *
 * Hazards (any of them means no allow pattern can vouch for the line, so the user is asked):
 * - `substitution`: `$(...)`, `$((...))`, backticks, `<(...)`, `>(...)`, or a `${...}` it
 *   does not read: something runs, or some text is made, that a pattern never saw;
 * - `file-redirection`: `>`, `>>`, `>|`, `&>`, `<>` or `>&` to a file (not `2>&1`, `>&-`,
 *   and not `/dev/null`, where writing changes nothing);
 * - `heredoc`: `<<` and `<<-` (the lines after it are data, not commands);
 * - `unparsable`: an unterminated quote or substitution, a redirection without a target, or
 *   `$'...\'...'`, which bash reads as one string and dash ends at the `\'`.
 *
 * Known limits, for the [safety] issue: commands that run other commands (`sudo`, `env`,
 * `xargs`, `find -exec`, `bash -c`, `eval`) are plain words here, so `exec(find *)` allows
 * `find . -exec rm {} +`; only leading assignments and reserved words are skipped for deny
 * rules. Deny patterns are a blocklist, not a sandbox.
 */

export type ShellHazard = 'substitution' | 'file-redirection' | 'heredoc' | 'unparsable'

export interface SimpleCommand {
  /** The command as written, trimmed: quotes, comments and redirections kept. */
  text: string
  /** Its words after quote removal; a redirection is one word with its target (`2>&1`, `>out.txt`). */
  words: string[]
}

export interface ParsedShellCommand {
  commands: SimpleCommand[]
  /** What no pattern can vouch for, each kind once, in the order found. */
  hazards: ShellHazard[]
}

export function parseShellCommand(line: string): ParsedShellCommand {
  return new ShellScanner(line).parse()
}

/**
 * The words that name what runs: leading `NAME=value` assignments and reserved words
 * (`if`, `then`, `!`, `{`, ...) dropped, so a deny of `rm *` also stops `X=1 rm -rf /` and
 * `if true; then rm -rf /; fi`. Only deny rules look at this: for allow rules an assignment
 * like `GIT_SSH_COMMAND=...` changes what the command does.
 */
export function commandWords(command: SimpleCommand): string[] {
  const first = command.words.findIndex((word) => !RESERVED_WORDS.has(word) && !ASSIGNMENT.test(word))
  return first === -1 ? [] : command.words.slice(first)
}

const RESERVED_WORDS = new Set(['!', '{', '}', 'do', 'done', 'elif', 'else', 'fi', 'if', 'then', 'time', 'until', 'while'])
const ASSIGNMENT = /^[A-Z_a-z]\w*\+?=/
const REDIRECTION_OPERATOR = /^(?:&>>|&>|>>|>\||>&|>|<<<|<<-|<<|<&|<>|<)/
const DESCRIPTOR_TARGET = /^\d*-?$/
const DOUBLE_QUOTE_ESCAPABLE = new Set(['\n', '"', '$', '\\', '`'])
const NO_SEE_IN_BRACES = /["$'\\`]/
/** Substitutions nested deeper are read as text: each level copies the text inside it. */
const MAX_NESTING = 16

/** One nesting level: the top of the line, or the inside of a `$(...)` or backtick substitution. */
interface Frame {
  /** What ends the frame; none at the top. */
  closer?: ')' | '`'
  /** Where its `$(`, `<(`, `>(` or backtick starts: the outer word gets the whole substitution. */
  start: number
  /** Unquoted `(` seen inside it: their `)` do not end it. */
  depth: number
  inDouble: boolean
  segmentStart: number
  words: string[]
  /** The word being read; undefined between words (so `#` there starts a comment). */
  word?: string
  /** A redirection operator (with its descriptor) waiting for its target word. */
  redirect?: string
}

class ShellScanner {
  private index = 0
  private readonly frames: Frame[] = [openFrame(0, 0)]
  private readonly commands: SimpleCommand[] = []
  private readonly hazards = new Set<ShellHazard>()

  constructor(private readonly line: string) {}

  parse(): ParsedShellCommand {
    while (this.index < this.line.length) {
      if (this.frame.inDouble) this.doubleQuoted()
      else this.unquoted()
    }

    if (this.frames.length > 1 || this.frame.inDouble) this.hazards.add('unparsable')
    while (this.frames.length > 1) this.closeFrame(this.line.length, 0)
    this.endSegment(this.line.length)
    return {commands: this.commands, hazards: [...this.hazards]}
  }

  private get frame(): Frame {
    return this.frames.at(-1)!
  }

  private unquoted(): void {
    const char = this.line[this.index]
    const next = this.line[this.index + 1]
    switch (char) {
      case ' ':
      case '\t': {
        this.endWord()
        this.index++
        break
      }

      case '\n':
      case ';': {
        this.separate(1)
        break
      }

      case '&': {
        if (next === '>') this.redirection()
        else this.separate(next === '&' ? 2 : 1)
        break
      }

      case '|': {
        this.separate(next === '|' ? 2 : 1)
        break
      }

      case '<':
      case '>': {
        if (next === '(') this.openSubstitution(')', 2)
        else this.redirection()
        break
      }

      case '(': {
        this.frame.depth++
        this.separate(1)
        break
      }

      case ')': {
        if (this.frame.depth === 0 && this.frame.closer === ')') {
          this.closeFrame(this.index, 1)
        } else {
          this.frame.depth = Math.max(0, this.frame.depth - 1)
          this.separate(1)
        }

        break
      }

      case '`': {
        this.backtick()
        break
      }

      case '$': {
        if (next === "'") this.ansiCQuoted()
        else this.dollar()
        break
      }

      case "'": {
        this.singleQuoted()
        break
      }

      case '"': {
        this.frame.inDouble = true
        this.append('')
        this.index++
        break
      }

      case '\\': {
        this.backslash(() => true)
        break
      }

      case '#': {
        if (this.frame.word === undefined) this.skipComment()
        else this.take(1)
        break
      }

      default: {
        this.take(1)
      }
    }
  }

  private doubleQuoted(): void {
    const char = this.line[this.index]
    if (char === '"') {
      this.frame.inDouble = false
      this.index++
    } else if (char === '\\') {
      this.backslash((escaped) => DOUBLE_QUOTE_ESCAPABLE.has(escaped))
    } else if (char === '`') {
      this.backtick()
    } else if (char === '$') {
      this.dollar()
    } else {
      this.take(1)
    }
  }

  /** `$(`, `$((` and `${` start something; any other `$` is part of the word. */
  private dollar(): void {
    const next = this.line[this.index + 1]
    if (next === '(') this.openSubstitution(')', 2)
    else if (next === '{') this.parameterExpansion()
    else this.take(1)
  }

  private parameterExpansion(): void {
    // Stops at the first character it cannot read past, so a line of `${${${...` stays linear.
    let end = this.index + 2
    while (end < this.line.length && this.line[end] !== '}' && !NO_SEE_IN_BRACES.test(this.line[end])) end++
    if (this.line[end] === '}') {
      this.take(end + 1 - this.index)
      return
    }

    // Read on as if the braces were text: the hazard already keeps every allow rule out.
    this.hazards.add(end < this.line.length ? 'substitution' : 'unparsable')
    this.take(2)
  }

  /** Inside backticks the first unescaped backtick ends them, quoted or not (as bash reads them). */
  private backtick(): void {
    if (this.frame.closer === '`') this.closeFrame(this.index, 1)
    else this.openSubstitution('`', 1)
  }

  private backslash(escapes: (next: string) => boolean): void {
    const next = this.line[this.index + 1]
    if (next === '\n') {
      this.index += 2
    } else if (next !== undefined && escapes(next)) {
      this.append(next)
      this.index += 2
    } else {
      this.take(1)
    }
  }

  private singleQuoted(): void {
    const end = this.line.indexOf("'", this.index + 1)
    if (end === -1) {
      this.hazards.add('unparsable')
      this.append(this.line.slice(this.index + 1))
      this.index = this.line.length
      return
    }

    this.append(this.line.slice(this.index + 1, end))
    this.index = end + 1
  }

  private ansiCQuoted(): void {
    let text = ''
    let at = this.index + 2
    while (at < this.line.length && this.line[at] !== "'") {
      const step = this.line[at] === '\\' ? 2 : 1
      if (this.line.startsWith("\\'", at)) this.hazards.add('unparsable')
      text += this.line.slice(at, at + step)
      at += step
    }

    if (at >= this.line.length) this.hazards.add('unparsable')
    this.append(text)
    this.index = at + 1
  }

  private skipComment(): void {
    const end = this.line.indexOf('\n', this.index)
    this.index = end === -1 ? this.line.length : end
  }

  private redirection(): void {
    const {frame} = this
    const descriptor = frame.word !== undefined && /^\d+$/.test(frame.word) ? frame.word : ''
    if (descriptor) frame.word = undefined
    else this.endWord()
    if (frame.redirect !== undefined) this.hazards.add('unparsable')
    const operator = REDIRECTION_OPERATOR.exec(this.line.slice(this.index, this.index + 3))![0]
    if (operator === '<<' || operator === '<<-') this.hazards.add('heredoc')
    frame.redirect = descriptor + operator
    this.index += operator.length
  }

  private openSubstitution(closer: ')' | '`', length: number): void {
    this.hazards.add('substitution')
    if (this.frames.length > MAX_NESTING) {
      this.hazards.add('unparsable')
      this.take(length)
      return
    }

    this.append('')
    this.frames.push(openFrame(this.index, this.index + length, closer))
    this.index += length
  }

  /** Ends the innermost substitution at `end` (its closer is `closerLength` long). */
  private closeFrame(end: number, closerLength: number): void {
    this.endSegment(end)
    const inner = this.frames.pop()!
    this.index = end + closerLength
    this.append(this.line.slice(inner.start, this.index))
  }

  private separate(length: number): void {
    this.endSegment(this.index)
    this.index += length
    this.frame.segmentStart = this.index
  }

  private endSegment(end: number): void {
    const {frame} = this
    this.endWord()
    if (frame.redirect !== undefined) {
      this.hazards.add('unparsable')
      frame.redirect = undefined
    }

    if (frame.words.length > 0) this.commands.push({text: this.line.slice(frame.segmentStart, end).trim(), words: frame.words})
    frame.words = []
  }

  private endWord(): void {
    const {frame} = this
    if (frame.word === undefined) return
    if (frame.redirect === undefined) {
      frame.words.push(frame.word)
    } else {
      if (writesFile(frame.redirect, frame.word)) this.hazards.add('file-redirection')
      frame.words.push(frame.redirect + frame.word)
      frame.redirect = undefined
    }

    frame.word = undefined
  }

  private take(length: number): void {
    this.append(this.line.slice(this.index, this.index + length))
    this.index += length
  }

  private append(text: string): void {
    this.frame.word = (this.frame.word ?? '') + text
  }
}

function openFrame(start: number, segmentStart: number, closer?: ')' | '`'): Frame {
  return {closer, depth: 0, inDouble: false, segmentStart, start, words: []}
}

function writesFile(redirect: string, target: string): boolean {
  const operator = redirect.replace(/^\d+/, '')
  if (operator.startsWith('<')) return operator === '<>'
  if (operator === '>&') return !DESCRIPTOR_TARGET.test(target)
  return target !== '/dev/null'
}
