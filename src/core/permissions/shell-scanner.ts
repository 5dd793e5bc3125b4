import {decodeAnsiC} from './ansi-c-quote.js'
import type {ParsedShellCommand, Redirection, ShellHazard, SimpleCommand} from './shell-command.js'
import {finishShape, quotedShape, unquotedShape} from './word-shape.js'

const REDIRECTION_OPERATOR = /^(?:&>>|&>|>>|>\||>&|>|<<<|<<-|<<|<&|<>|<)/
const DESCRIPTOR_TARGET = /^\d*-?$/
const DOUBLE_QUOTE_ESCAPABLE = new Set(['\n', '"', '$', '\\', '`'])
const NO_SEE_IN_BRACES = /["$'\\`]/
/** `$name`, `$1`, `$@`, ...: a parameter without braces. */
const PARAMETER = /[A-Z_a-z]\w*|[\d!#$*?@-]/y
const HIDDEN = /(?![\t\n])[\p{Cc}\p{Cf}\u2028\u2029]/u
/** Characters that mean nothing more than themselves, unquoted and in "...". */
const PLAIN = /[^\t\n "$&'()<>;\\`|]*/y
const PLAIN_IN_DOUBLE = /[^"$\\`]*/y
/** Substitutions nested deeper are read as text: each level copies the text inside it. */
const MAX_NESTING = 16

/** One nesting level: the top of the line, or the inside of a `$(...)`, `<(...)` or `>(...)`. */
interface Frame {
  /** What ends the frame; none at the top. */
  closer?: ')'
  /** Where its `$(`, `<(` or `>(` starts: the outer word gets the whole substitution. */
  start: number
  /** Unquoted `(` seen inside it: their `)` do not end it. */
  depth: number
  inDouble: boolean
  segmentStart: number
  words: string[]
  shapes: string[]
  redirections: Redirection[]
  /** The word being read, and its raw shape; undefined between words (so `#` there starts a comment). */
  word?: string
  shape: string
  /** A redirection operator (with its descriptor) waiting for its target word. */
  redirect?: string
}

/** The reader behind parseShellCommand: shell-command.ts says what it reads and reports. */
export class ShellScanner {
  private index = 0
  private readonly frames: Frame[] = [openFrame(0, 0)]
  private readonly commands: SimpleCommand[] = []
  private readonly hazards = new Set<ShellHazard>()

  /** `depth`: the substitutions around the line (a backtick's text is read by a scanner of its own). */
  constructor(
    private readonly line: string,
    private readonly depth = 0,
  ) {}

  parse(): ParsedShellCommand {
    if (HIDDEN.test(this.line)) this.hazards.add('hidden-character')
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

  /** How many substitutions are open here. */
  private get nesting(): number {
    return this.depth + this.frames.length - 1
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
        this.append('', '')
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
        this.takeRun(PLAIN)
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
      this.takeRun(PLAIN_IN_DOUBLE)
    }
  }

  /** `$(`, `$((`, `${` and `$name` expand; `$"` is a string; any other `$` is part of the word. */
  private dollar(): void {
    const next = this.line[this.index + 1]
    if (next === '(') {
      this.openSubstitution(')', 2)
    } else if (next === '{') {
      this.parameterExpansion()
    } else if (next === '"' && !this.frame.inDouble) {
      this.index++
    } else {
      PARAMETER.lastIndex = this.index + 1
      const end = PARAMETER.test(this.line) ? PARAMETER.lastIndex : undefined
      if (end === undefined) {
        this.take(1)
      } else {
        this.append(this.line.slice(this.index, end), '*')
        this.index = end
      }
    }
  }

  private parameterExpansion(): void {
    // Stops at the first character it cannot read past, so a line of `${${${...` stays linear.
    let end = this.index + 2
    while (end < this.line.length && this.line[end] !== '}' && !NO_SEE_IN_BRACES.test(this.line[end])) end++
    if (this.line[end] === '}') {
      this.append(this.line.slice(this.index, end + 1), '*')
      this.index = end + 1
      return
    }

    // Read on as if the braces were text: the hazard already keeps every allow rule out.
    this.hazards.add('unparsable')
    this.append(this.line.slice(this.index, this.index + 2), '*')
    this.index += 2
  }

  /**
   * Bash reads a backtick substitution in two steps: it ends at the first backtick not escaped,
   * and its text, with `\\`, `\``, `\$` (and in "..." `\"`) unescaped, is then read as a command
   * line of its own. So backticks nest through escapes: `` ls `ls \`touch M\`` `` runs `touch M`.
   */
  private backtick(): void {
    this.hazards.add('substitution')
    const start = this.index
    let end = start + 1
    while (end < this.line.length && this.line[end] !== '`') end += this.line[end] === '\\' ? 2 : 1
    if (end >= this.line.length) this.hazards.add('unparsable')
    this.index = Math.min(end + 1, this.line.length)
    this.append(this.line.slice(start, this.index), '*')
    if (this.nesting >= MAX_NESTING) {
      this.hazards.add('unparsable')
      return
    }

    const escaped = this.frame.inDouble ? /\\(["$\\`])/g : /\\([$\\`])/g
    const inner = new ShellScanner(
      this.line.slice(start + 1, Math.min(end, this.line.length)).replaceAll(escaped, '$1'),
      this.nesting + 1,
    ).parse()
    this.commands.push(...inner.commands)
    for (const hazard of inner.hazards) this.hazards.add(hazard)
  }

  private backslash(escapes: (next: string) => boolean): void {
    const next = this.line[this.index + 1]
    if (next === '\n') {
      this.index += 2
    } else if (next !== undefined && escapes(next)) {
      this.append(next, quotedShape(next))
      this.index += 2
    } else {
      this.take(1)
    }
  }

  private singleQuoted(): void {
    const end = this.line.indexOf("'", this.index + 1)
    if (end === -1) {
      this.hazards.add('unparsable')
      this.quoted(this.line.slice(this.index + 1))
      this.index = this.line.length
      return
    }

    this.quoted(this.line.slice(this.index + 1, end))
    this.index = end + 1
  }

  private ansiCQuoted(): void {
    let at = this.index + 2
    while (at < this.line.length && this.line[at] !== "'") {
      if (this.line.startsWith("\\'", at)) this.hazards.add('unparsable')
      at += this.line[at] === '\\' ? 2 : 1
    }

    if (at >= this.line.length) this.hazards.add('unparsable')
    this.quoted(decodeAnsiC(this.line.slice(this.index + 2, Math.min(at, this.line.length))))
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
    frame.shape = ''
    this.index += operator.length
  }

  private openSubstitution(closer: ')', length: number): void {
    this.hazards.add('substitution')
    if (this.nesting >= MAX_NESTING) {
      this.hazards.add('unparsable')
      this.take(length)
      return
    }

    this.append('', '')
    this.frames.push(openFrame(this.index, this.index + length, closer))
    this.index += length
  }

  /** Ends the innermost substitution at `end` (its closer is `closerLength` long). */
  private closeFrame(end: number, closerLength: number): void {
    this.endSegment(end)
    const inner = this.frames.pop()!
    this.index = end + closerLength
    this.append(this.line.slice(inner.start, this.index), '*')
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

    if (frame.words.length > 0 || frame.redirections.length > 0) {
      const {redirections, shapes, words} = frame
      this.commands.push({redirections, shapes, text: this.line.slice(frame.segmentStart, end).trim(), words})
    }

    frame.words = []
    frame.shapes = []
    frame.redirections = []
  }

  private endWord(): void {
    const {frame} = this
    if (frame.word === undefined) return
    const shape = finishShape(frame.shape)
    if (frame.redirect === undefined) {
      frame.words.push(frame.word)
      frame.shapes.push(shape)
    } else {
      const writes = writesFile(frame.redirect, frame.word)
      if (writes) this.hazards.add('file-redirection')
      frame.redirections.push({operator: frame.redirect, shape, target: frame.word, writes})
      frame.redirect = undefined
    }

    frame.word = undefined
    frame.shape = ''
  }

  /** Takes the run of characters `run` (a sticky expression) matches here, at least one. */
  private takeRun(run: RegExp): void {
    run.lastIndex = this.index + 1
    run.test(this.line)
    this.take(Math.max(run.lastIndex, this.index + 1) - this.index)
  }

  /** Takes characters as they are: quoted inside "...", else unquoted (globs and braces live). */
  private take(length: number): void {
    const text = this.line.slice(this.index, this.index + length)
    this.append(text, this.frame.inDouble ? quotedShape(text) : unquotedShape(text))
    this.index += length
  }

  private quoted(text: string): void {
    this.append(text, quotedShape(text))
  }

  private append(text: string, shape: string): void {
    const {frame} = this
    frame.word = (frame.word ?? '') + text
    frame.shape += shape
  }
}

function openFrame(start: number, segmentStart: number, closer?: ')'): Frame {
  return {closer, depth: 0, inDouble: false, redirections: [], segmentStart, shape: '', shapes: [], start, words: []}
}

function writesFile(redirect: string, target: string): boolean {
  const operator = redirect.replace(/^\d+/, '')
  if (operator.startsWith('<')) return operator === '<>'
  if (operator === '>&') return !DESCRIPTOR_TARGET.test(target)
  return target !== '/dev/null'
}
