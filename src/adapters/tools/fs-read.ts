import {type FileHandle} from 'node:fs/promises'

import {type ToolDefinition, toolOk} from '@hanzo-dev/sdk'

import {readImageFile} from './image-file.js'
import {objectSchema, pathProperty} from './input-schema.js'
import {pathSubject} from './path-call.js'
import {looksBinary, openRegularFile} from './text-file.js'
import {failureResult, ToolFailure} from './tool-failure.js'
import {resolveToolPath} from './workspace-path.js'

export type FsReadInput = {
  path: string
  offset?: number
  limit?: number
}

/** Lines shown by one call; the model pages through longer files with `offset`. */
export const READ_MAX_LINES = 2000
/** Bytes of line text shown by one call, whatever the line count (minified files). */
export const READ_MAX_BYTES = 96 * 1024
/** Bytes kept of one line: the rest of a longer line is cut and counted. */
export const READ_MAX_LINE_BYTES = 2000

const CHUNK_BYTES = 64 * 1024

export const fsRead: ToolDefinition<FsReadInput> = {
  name: 'fs_read',
  aliases: ['Read'],
  description: [
    'Read a text file in the workspace. Lines come back numbered like `cat -n` (the number, a tab, the line), starting at line 1.',
    `One call returns at most ${READ_MAX_LINES} lines and ${READ_MAX_BYTES / 1024} KB; lines longer than ${READ_MAX_LINE_BYTES} bytes are cut. When a file continues, the result says which offset to read next.`,
    'Use offset and limit to read part of a large file. Directories are refused (use fs_list), and so are binary files and files with more than one hard link (their other names may be outside the workspace).',
    'Read a file before editing it with fs_edit: the line numbers are not part of the text to match.',
    'A PNG, JPEG, GIF or WebP image comes back as the picture itself, for a model that takes images.',
  ].join(' '),
  inputSchema: objectSchema(
    {
      path: pathProperty('The file to read'),
      offset: {type: 'integer', minimum: 1, description: 'The first line to return, 1-based. Defaults to 1.'},
      limit: {
        type: 'integer',
        minimum: 1,
        description: `How many lines to return. Defaults to (and is capped at) ${READ_MAX_LINES}.`,
      },
    },
    ['path'],
  ),
  mutating: false,
  kind: 'read',
  subject: pathSubject,
  describe: (input) => input.path,
  locations: (input) => [{path: input.path, ...(input.offset === undefined ? {} : {line: input.offset})}],
  async execute(input, context) {
    try {
      const target = await resolveToolPath(context.cwd, input.path, context.hiddenPaths)
      const {handle, size} = await openRegularFile(target.absolute, target.relative)
      try {
        const image = await readImageFile(handle, size, target.relative)
        if (image) return image
        const {lines, text} = await readLines(
          handle,
          size,
          target.relative,
          input.offset ?? 1,
          Math.min(input.limit ?? READ_MAX_LINES, READ_MAX_LINES),
        )
        return toolOk(text, {kind: 'read', lines})
      } finally {
        await handle.close()
      }
    } catch (error) {
      return failureResult(error, input.path)
    }
  },
}

interface Line {
  number: number
  text: string
}

/**
 * Lines `first` .. `first + count - 1`, numbered, read in chunks so memory stays bounded whatever
 * the file's size or line length: lines before `first` are only counted, long lines are cut.
 */
async function readLines(
  handle: FileHandle,
  size: number,
  display: string,
  first: number,
  count: number,
): Promise<{text: string; lines: number}> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
  const lines: Line[] = []
  let shownBytes = 0
  let lineNumber = 1
  let lineStart = 0
  let parts: Buffer[] = []
  let kept = 0
  let position = 0

  /** Adds the current line; false when it would pass the byte cap (it is then left for the next call). */
  const accept = (lineEnd: number): boolean => {
    const text = lineText(Buffer.concat(parts), lineEnd - lineStart)
    parts = []
    kept = 0
    const bytes = Buffer.byteLength(text)
    if (lines.length > 0 && shownBytes + bytes > READ_MAX_BYTES) return false
    lines.push({number: lineNumber, text})
    shownBytes += bytes
    return true
  }

  for (;;) {
    const {bytesRead} = await handle.read(chunk, 0, CHUNK_BYTES, position)
    if (bytesRead === 0) break
    const data = chunk.subarray(0, bytesRead)
    if (position === 0 && looksBinary(data))
      throw new ToolFailure(
        `${display} looks like a binary file (a NUL byte in its first 8 KB); fs_read only reads text`,
      )
    let start = 0
    while (start < data.length) {
      const newline = data.indexOf(10, start)
      const end = newline === -1 ? data.length : newline
      if (lineNumber >= first && kept < READ_MAX_LINE_BYTES) {
        // A copy: `chunk` is overwritten by the next read.
        const piece = Buffer.from(data.subarray(start, Math.min(end, start + READ_MAX_LINE_BYTES - kept)))
        parts.push(piece)
        kept += piece.length
      }

      if (newline === -1) break
      const nextLine = position + newline + 1
      if (lineNumber >= first) {
        if (!accept(position + newline)) return render(lines, display, size, true)
        if (lines.length === count) return render(lines, display, size, nextLine < size)
      }

      lineNumber++
      lineStart = nextLine
      start = newline + 1
    }

    position += bytesRead
  }

  // A last line without a newline is still a line.
  const lastLineOpen = position > lineStart
  if (lastLineOpen && lineNumber >= first && !accept(position)) return render(lines, display, size, true)
  if (lines.length > 0) return render(lines, display, size, false)
  if (position === 0) return {lines: 0, text: `${display} is empty.`}
  const total = lastLineOpen ? lineNumber : lineNumber - 1
  throw new ToolFailure(
    `offset ${first} is past the end of ${display}, which has ${total} line${total === 1 ? '' : 's'}`,
  )
}

/** A line as shown: its line ending dropped, or, when it was cut, the count of what was left out. */
function lineText(kept: Buffer, fullLength: number): string {
  const text = kept.toString('utf8')
  if (kept.length === fullLength) return text.endsWith('\r') ? text.slice(0, -1) : text
  // The cut may split a character; its undecodable half is dropped with the rest.
  return `${text.replace(/\uFFFD+$/, '')} [… ${fullLength - kept.length} more bytes on this line]`
}

function render(lines: Line[], display: string, size: number, more: boolean): {text: string; lines: number} {
  const body = lines.map((line) => `${String(line.number).padStart(6)}\t${line.text}`).join('\n')
  if (!more) return {lines: lines.length, text: body}
  const first = lines[0].number
  const last = lines.at(-1)?.number ?? first
  return {
    lines: lines.length,
    text: `${body}\n\n[Showed lines ${first}-${last} of ${display} (${size} bytes in all); it continues: call fs_read with offset=${last + 1} to read more.]`,
  }
}
