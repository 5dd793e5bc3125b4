import {type JsonSchema, type ToolResult, toolOk} from '@hanzo-dev/sdk'
import {createPatch, FILE_HEADERS_ONLY} from 'diff'

import {looksBinary, openRegularFile, readUpTo} from './text-file.js'
import {ToolFailure} from './tool-failure.js'

/**
 * Exact string replacement in a text file, as fs_edit and fs_multi_edit do it: what a
 * replacement asks for, how it is found in the file, and how the change is reported.
 */
// A type, not an interface: a tool's input must be assignable to Record<string, unknown>.
export type StringEdit = {
  old_string: string
  new_string: string
  replace_all?: boolean
}

/** Larger files are not source code one edits by string replacement; the model can use exec. */
export const EDIT_MAX_BYTES = 10 * 1024 * 1024
/** Past this many changed lines the diff costs more than it tells; the edit is still made. */
const DIFF_MAX_EDIT_LENGTH = 5000

/** The schema of one replacement's fields, shared so both tools describe them in the same words. */
export const STRING_EDIT_PROPERTIES: Record<keyof StringEdit, JsonSchema> = {
  old_string: {type: 'string', description: 'The exact text to replace; must not be empty.'},
  new_string: {
    type: 'string',
    description: 'The text to put in its place; must differ from old_string. Empty to delete old_string.',
  },
  replace_all: {
    type: 'boolean',
    description: 'Replace every occurrence of old_string instead of requiring exactly one. Defaults to false.',
  },
}

/**
 * `text` with `edit` made, and how many occurrences it replaced; a {@link ToolFailure} when the
 * edit cannot be made as asked (empty, unchanged, not found, or found several times without
 * replace_all). `display` names the file in the error.
 */
export function replaceExactly(text: string, edit: StringEdit, display: string): {after: string; count: number} {
  if (edit.old_string === '')
    throw new ToolFailure('old_string is empty; give the exact text to replace (to create a file, use fs_write)')
  if (edit.old_string === edit.new_string)
    throw new ToolFailure('old_string and new_string are the same; there is nothing to change')
  const {count, oldString, newString} = locate(text, edit)
  if (count === 0) {
    throw new ToolFailure(
      `old_string was not found in ${display}; read the file again with fs_read and copy the text exactly, whitespace and indentation included`,
    )
  }

  if (count > 1 && !edit.replace_all) {
    throw new ToolFailure(
      `old_string was found ${count} times in ${display}; add surrounding lines to make it unique, or set replace_all to replace every occurrence`,
    )
  }

  // split/join rather than String.replace, whose replacement string gives `$&` and `$1` a meaning.
  return {after: text.split(oldString).join(newString), count}
}

/** The text of a file an edit may change, or a {@link ToolFailure} saying why `tool` will not edit it. */
export async function readEditableText(absolute: string, display: string, tool: string): Promise<string> {
  const {handle, size} = await openRegularFile(absolute, display)
  let bytes: Buffer | undefined
  try {
    bytes = await readUpTo(handle, EDIT_MAX_BYTES, size)
  } finally {
    await handle.close()
  }

  if (bytes === undefined)
    throw new ToolFailure(
      `${display} is larger than ${EDIT_MAX_BYTES / 1024 / 1024} MB; ${tool} does not edit files that large (use exec with a tool such as sed)`,
    )
  if (looksBinary(bytes))
    throw new ToolFailure(`${display} looks like a binary file (a NUL byte in its first 8 KB); ${tool} only edits text`)
  const text = bytes.toString('utf8')
  // Writing back text that did not decode cleanly would change bytes nobody asked to change.
  if (!Buffer.from(text, 'utf8').equals(bytes))
    throw new ToolFailure(`${display} is not valid UTF-8; ${tool} would alter it beyond the edit (use exec instead)`)
  return text
}

/** The result of an edit that was written: `summary`, the unified diff, and the change as details. */
export function editedResult(path: string, before: string, after: string, summary: string): ToolResult {
  const patch = createPatch(path, before, after, undefined, undefined, {
    context: 3,
    headerOptions: FILE_HEADERS_ONLY,
    maxEditLength: DIFF_MAX_EDIT_LENGTH,
  })
  const text =
    patch === undefined
      ? `${summary} (The diff is too large to show; read the file to check it.)`
      : `${summary}\n\n${patch}`
  return toolOk(text, {files: [{after, before, path}], kind: 'edit'})
}

/**
 * How often the model's old_string occurs, and the strings to use. A file with CRLF line endings
 * reads back through fs_read without the CR, so an old_string with bare LF newlines that is not
 * found as given is looked for (and new_string written) with CRLF instead.
 */
function locate(text: string, edit: StringEdit): {count: number; oldString: string; newString: string} {
  const count = occurrences(text, edit.old_string)
  if (count > 0 || !text.includes('\r\n') || !edit.old_string.includes('\n') || edit.old_string.includes('\r')) {
    return {count, newString: edit.new_string, oldString: edit.old_string}
  }

  const crlf = (s: string) => s.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n')
  const oldString = crlf(edit.old_string)
  return {count: occurrences(text, oldString), newString: crlf(edit.new_string), oldString}
}

/** Non-overlapping occurrences, the ones split/join replaces. */
function occurrences(text: string, needle: string): number {
  let count = 0
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++
  return count
}
