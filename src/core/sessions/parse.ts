import {isRecord} from '@hanzo-dev/sdk/settings'

import {type SessionHeader, TRANSCRIPT_VERSION, type TranscriptLine} from './transcript.js'

export interface SkippedLine {
  /** 1-based. */
  line: number
  /** `torn`: the last line, cut short by a kill during its write; `unreadable`: any other. */
  reason: 'torn' | 'unreadable'
}

export interface ParsedTranscript {
  header: SessionHeader
  /** Every readable line after the header, in order. */
  lines: TranscriptLine[]
  skipped: SkippedLine[]
}

export class TranscriptError extends Error {}

/**
 * Reads a transcript. Each line was written whole by one append, so a kill loses at most the
 * last line, which may be left without its newline: it is skipped. A line that is not JSON
 * elsewhere (a torn line a later run appended after) is skipped too; callers say so. Only a
 * missing or unreadable header fails: without it nothing says whose session this is.
 */
export function parseTranscript(text: string): ParsedTranscript {
  const rows = text.split('\n')
  // A complete file ends with a newline, leaving an empty last row.
  const complete = rows.at(-1) === ''
  if (complete) rows.pop()
  const lines: TranscriptLine[] = []
  const skipped: SkippedLine[] = []
  for (const [index, row] of rows.entries()) {
    const value = parseRow(row)
    if (value) lines.push(value)
    else if (row.trim() !== '')
      skipped.push({line: index + 1, reason: !complete && index === rows.length - 1 ? 'torn' : 'unreadable'})
  }

  const header = lines.shift()
  if (header?.type !== 'session') throw new TranscriptError('it does not start with a session header')
  if (typeof header.version !== 'number' || header.version > TRANSCRIPT_VERSION) {
    throw new TranscriptError(
      `it was written by a newer hanzo-dev (transcript version ${String(header.version)}; this one reads ${TRANSCRIPT_VERSION})`,
    )
  }

  return {header, lines, skipped}
}

function parseRow(row: string): TranscriptLine | undefined {
  try {
    const value: unknown = JSON.parse(row)
    return isRecord(value) && typeof value.type === 'string' ? (value as unknown as TranscriptLine) : undefined
  } catch {
    return undefined
  }
}
