import {StringDecoder} from 'node:string_decoder'

import {ProtocolError} from './protocol-error.js'

/** One dispatched server-sent event (HIP-301 §3). */
export interface SseFrame {
  /** The `event` field of this event; null when absent or empty (EventSource would say "message"). */
  event: string | null
  /** The `data` lines joined with "\n". */
  data: string
  /** The last event id at dispatch (it persists across events); null when none. */
  id: string | null
  /** A valid `retry` field seen in this event's lines; null when none. */
  retry: number | null
}

export interface SseFrameBufferOptions {
  /**
   * The most UTF-16 code units one event may hold (its unterminated line plus its data).
   * Past it `feed` throws a ProtocolError (`sse_buffer_overflow`) and the buffer stays
   * stopped until `reset()`: a hostile or broken server cannot grow memory without bound.
   */
  maxBufferSize?: number
}

/** 16 Mi code units: far above any real model-stream event, far below a memory problem. */
export const DEFAULT_SSE_MAX_BUFFER_SIZE = 16 * 1024 * 1024

const LF = 10
const CR = 13
/** Chunks up to this many characters are walked, longer ones searched (see scanShort). */
const SHORT_CHUNK = 16
const SPACE = 32
const COLON = 58
const BOM = '\uFEFF'
const MAX_RETRY = Number.MAX_SAFE_INTEGER
/** No frames yet: the first dispatch makes a one-element array instead of growing an empty one. */
const NONE: SseFrame[] = []

/** What is kept of an unterminated line, decided by its start. */
const LINE = 0 // the whole line, parsed when it ends
const COMMENT = 1 // nothing
const DATA_VALUE = 2 // the value of a `data:` line

/**
 * Where the value of a `data:` line in s[start, end) begins, or -1 if it is not one (or, for a
 * line not yet complete, if the chunk ends before the optional space after the colon).
 */
function dataValueStart(s: string, start: number, end: number, complete: boolean): number {
  if (
    end - start < (complete ? 5 : 6) ||
    s.charCodeAt(start) !== 100 ||
    s.charCodeAt(start + 1) !== 97 ||
    s.charCodeAt(start + 2) !== 116 ||
    s.charCodeAt(start + 3) !== 97 ||
    s.charCodeAt(start + 4) !== COLON
  ) {
    return -1
  }

  return start + 5 < end && s.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5
}

/**
 * A stateful server-sent-events parser following the WHATWG "interpreting an event stream"
 * rules, fed chunks of any size (strings or bytes). Work is linear in the total input however
 * it is chunked: each character is scanned once, and a line split across chunks is kept as a
 * rope, copied at most once (never a re-scan of a growing buffer). bench/sse.js measures it.
 */
export class SseFrameBuffer {
  private readonly maxBufferSize: number
  private decoder: StringDecoder | undefined
  private atStreamStart = true
  private afterCR = false
  /** The unterminated line so far; `+` builds a rope, flattened once when the line ends. */
  private pending = ''
  private pendingKind = LINE
  private data = ''
  private dataLines = 0
  /** The WHATWG data buffer's length: our joined `data` plus the "\n" ending its last line. */
  private dataSize = 0
  private eventType = ''
  private eventRetry: number | null = null
  private idBuffer = ''
  private dispatchedId = ''
  private reconnectionTime: number | null = null
  private overflowed = false
  private out: SseFrame[] = NONE

  constructor(options: SseFrameBufferOptions = {}) {
    const max = options.maxBufferSize ?? DEFAULT_SSE_MAX_BUFFER_SIZE
    if (!Number.isSafeInteger(max) || max < 1)
      throw new RangeError(`maxBufferSize must be a positive integer, got ${max}`)
    this.maxBufferSize = max
  }

  /** The last event id, as EventSource would send in Last-Event-ID; null when none. */
  get lastEventId(): string | null {
    return this.dispatchedId === '' ? null : this.dispatchedId
  }

  /** The reconnection time in ms from the last valid `retry` field anywhere; null when none. */
  get retry(): number | null {
    return this.reconnectionTime
  }

  /** Feeds the next chunk; returns the events it completed, in order. */
  feed(chunk: string | Uint8Array): SseFrame[] {
    if (this.overflowed) throw this.overflowError()
    if (typeof chunk === 'string') {
      // Bytes left half-decoded before a string chunk can never complete: flush them as U+FFFD.
      if (this.decoder) this.flushDecoder()
      this.scan(chunk)
    } else {
      // StringDecoder keeps a BOM in the text (one rule strips it for strings and bytes alike)
      // and costs far less per call than TextDecoder, which matters for tiny chunks.
      this.decoder ??= new StringDecoder('utf8')
      this.scan(this.decoder.write(chunk))
    }

    const frames = this.out
    if (frames === NONE) return []
    this.out = NONE
    return frames
  }

  /**
   * Ends the stream. An event without its closing blank line is discarded (WHATWG), so this
   * returns no frames; it flushes half-decoded bytes and readies the buffer for a new stream,
   * keeping `lastEventId` and `retry` as EventSource keeps them across reconnections.
   */
  end(): SseFrame[] {
    if (this.overflowed) throw this.overflowError()
    if (this.decoder) this.flushDecoder()
    const frames = this.out === NONE ? [] : this.out
    this.out = NONE
    this.startStream()
    this.idBuffer = this.dispatchedId
    return frames
  }

  /** Forgets everything, the last event id, reconnection time and an overflow included. */
  reset(): void {
    this.overflowed = false
    this.out = NONE
    this.startStream()
    this.idBuffer = ''
    this.dispatchedId = ''
    this.reconnectionTime = null
  }

  private startStream(): void {
    this.decoder = undefined
    this.atStreamStart = true
    this.afterCR = false
    this.clearPending()
    this.clearEvent()
  }

  private flushDecoder(): void {
    const rest = this.decoder!.end()
    this.decoder = undefined
    this.scan(rest)
  }

  private scan(text: string): void {
    if (text.length === 0) return
    let pos = 0
    if (this.atStreamStart) {
      this.atStreamStart = false
      if (text.startsWith(BOM)) pos = 1
    }

    if (this.afterCR) {
      this.afterCR = false
      if (text.charCodeAt(pos) === LF) pos++
    }

    if (text.length - pos <= SHORT_CHUNK) {
      this.scanShort(text, pos)
      return
    }

    // Next LF and CR positions, each searched again only once passed, so the chunk is scanned once.
    let lf = text.indexOf('\n', pos)
    let cr = text.indexOf('\r', pos)
    while (lf !== -1 || cr !== -1) {
      const end = cr === -1 || (lf !== -1 && lf < cr) ? lf : cr
      this.endLine(text, pos, end)
      pos = end + 1
      if (end === cr) {
        if (pos === text.length) this.afterCR = true
        else if (text.charCodeAt(pos) === LF) pos++
        cr = text.indexOf('\r', pos)
      }

      // The blank line that ends an event follows its last line: no search for the next LF.
      if (lf !== -1 && lf < pos) lf = text.charCodeAt(pos) === LF ? pos : text.indexOf('\n', pos)
    }

    if (pos < text.length) this.keepPending(text, pos)
  }

  /** The same as the indexOf loop, for chunks so small that two searches cost more than a walk. */
  private scanShort(text: string, pos: number): void {
    const {length} = text
    for (let i = pos; i < length; i++) {
      const c = text.charCodeAt(i)
      if (c !== LF && c !== CR) continue
      this.endLine(text, pos, i)
      if (c === CR) {
        if (i + 1 === length) this.afterCR = true
        else if (text.charCodeAt(i + 1) === LF) i++
      }

      pos = i + 1
    }

    if (pos < length) this.keepPending(text, pos)
  }

  private keepPending(text: string, start: number): void {
    if (this.pendingKind === LINE && this.pending.length === 0) {
      if (text.charCodeAt(start) === COLON) {
        this.pendingKind = COMMENT
        return
      }

      const valueStart = dataValueStart(text, start, text.length, false)
      if (valueStart !== -1) {
        this.pendingKind = DATA_VALUE
        start = valueStart
      }
    }

    if (this.pendingKind === COMMENT) return
    this.pending += start === 0 ? text : text.slice(start)
    if (this.pending.length + this.dataSize > this.maxBufferSize) this.overflow()
  }

  private endLine(text: string, start: number, end: number): void {
    if (this.pendingKind === COMMENT) {
      this.pendingKind = LINE
    } else if (this.pendingKind === DATA_VALUE) {
      // Left as a rope: whoever reads the data flattens it once, so the value is not copied twice.
      const value = this.pending + text.slice(start, end)
      this.clearPending()
      this.appendData(value)
    } else if (this.pending.length === 0) {
      this.parseLine(text, start, end)
    } else {
      const line = this.pending + text.slice(start, end)
      this.clearPending()
      this.parseLine(line, 0, line.length)
    }
  }

  private parseLine(s: string, start: number, end: number): void {
    if (start === end) {
      this.dispatch()
      return
    }

    if (s.charCodeAt(start) === COLON) return
    // Most lines of a model stream are `data:`; read them without building the line first.
    const valueStart = dataValueStart(s, start, end, true)
    if (valueStart !== -1) {
      this.appendData(s.slice(valueStart, end))
      return
    }

    const line = s.slice(start, end)
    const colon = line.indexOf(':')
    if (colon === -1) {
      this.field(line, '')
      return
    }

    this.field(line.slice(0, colon), line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1))
  }

  private field(name: string, value: string): void {
    switch (name) {
      case 'data': {
        this.appendData(value)
        break
      }

      case 'event': {
        this.eventType = value
        break
      }

      case 'id': {
        if (!value.includes('\0')) this.idBuffer = value
        break
      }

      case 'retry': {
        if (/^[0-9]+$/.test(value)) {
          const ms = Number(value)
          if (ms <= MAX_RETRY) {
            this.reconnectionTime = ms
            this.eventRetry = ms
          }
        }

        break
      }

      default:
    }
  }

  private appendData(value: string): void {
    if (this.dataLines === 0) this.data = value
    else this.data = `${this.data}\n${value}`
    this.dataLines++
    this.dataSize += value.length + 1
    if (this.dataSize > this.maxBufferSize) this.overflow()
  }

  private dispatch(): void {
    this.dispatchedId = this.idBuffer
    if (this.dataLines > 0) {
      const frame = {
        event: this.eventType === '' ? null : this.eventType,
        data: this.data,
        id: this.idBuffer === '' ? null : this.idBuffer,
        retry: this.eventRetry,
      }
      if (this.out === NONE) this.out = [frame]
      else this.out.push(frame)
    }

    this.clearEvent()
  }

  private clearEvent(): void {
    this.data = ''
    this.dataLines = 0
    this.dataSize = 0
    this.eventType = ''
    this.eventRetry = null
  }

  private clearPending(): void {
    this.pending = ''
    this.pendingKind = LINE
  }

  private overflow(): never {
    this.overflowed = true
    this.clearPending()
    this.clearEvent()
    this.out = NONE
    throw this.overflowError()
  }

  private overflowError(): ProtocolError {
    return new ProtocolError(
      'sse_buffer_overflow',
      `A server-sent event exceeded the buffer limit of ${this.maxBufferSize} characters (maxBufferSize); the stream was stopped. Call reset() before reusing the buffer.`,
    )
  }
}
