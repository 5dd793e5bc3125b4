import {type ToolDefinition, toolOk} from '@hanzo-dev/sdk'
import {createPatch, FILE_HEADERS_ONLY} from 'diff'

import {writeFileAtomic} from '../atomic-write.js'
import {fileSnapshot} from './file-snapshot.js'
import {objectSchema, pathProperty} from './input-schema.js'
import {pathLocations, pathSubject} from './path-call.js'
import {looksBinary, openRegularFile, readUpTo} from './text-file.js'
import {failureResult, ToolFailure} from './tool-failure.js'
import {resolveToolPath} from './workspace-path.js'

export type FsEditInput = {
  path: string
  old_string: string
  new_string: string
  replace_all?: boolean
}

/** Larger files are not source code one edits by string replacement; the model can use exec. */
export const EDIT_MAX_BYTES = 10 * 1024 * 1024
/** Past this many changed lines the diff costs more than it tells; the edit is still made. */
const DIFF_MAX_EDIT_LENGTH = 5000

export const fsEdit: ToolDefinition<FsEditInput> = {
  name: 'fs_edit',
  description: [
    'Edit a text file in the workspace by exact string replacement: old_string is replaced by new_string, and the result is a unified diff of the change.',
    'old_string must match the file exactly, whitespace and indentation included (copy it from fs_read output without the line-number prefix), and must occur exactly once unless replace_all is true:',
    'when it occurs several times, include more surrounding lines to make it unique.',
    `The write is atomic. To create a file or rewrite it whole use fs_write. Files over ${EDIT_MAX_BYTES / 1024 / 1024} MB, binary files, files that are not valid UTF-8 and files with more than one hard link are refused.`,
  ].join(' '),
  inputSchema: objectSchema(
    {
      path: pathProperty('The file to edit'),
      old_string: {type: 'string', description: 'The exact text to replace; must not be empty.'},
      new_string: {
        type: 'string',
        description: 'The text to put in its place; must differ from old_string. Empty to delete old_string.',
      },
      replace_all: {
        type: 'boolean',
        description: 'Replace every occurrence of old_string instead of requiring exactly one. Defaults to false.',
      },
    },
    ['path', 'old_string', 'new_string'],
  ),
  mutating: true,
  kind: 'edit',
  subject: pathSubject,
  describe: (input) => input.path,
  locations: pathLocations,
  async preview(input, context) {
    const {before, path} = await fileSnapshot(context.cwd, input.path, context.hiddenPaths)
    if (typeof before === 'string' && input.old_string !== '') {
      const {count, newString, oldString} = locate(before, input)
      if (count === 1 || (count > 1 && input.replace_all === true))
        return [{after: before.split(oldString).join(newString), before, path}]
    }

    // The edit will fail (the text is not there, or not once): what it asks for.
    return [{after: input.new_string, before: input.old_string, path}]
  },
  async execute(input, context) {
    try {
      if (input.old_string === '')
        throw new ToolFailure('old_string is empty; give the exact text to replace (to create a file, use fs_write)')
      if (input.old_string === input.new_string)
        throw new ToolFailure('old_string and new_string are the same; there is nothing to change')
      const target = await resolveToolPath(context.cwd, input.path, context.hiddenPaths)
      const before = await readEditableText(target.absolute, target.relative)
      const {count, oldString, newString} = locate(before, input)
      if (count === 0) {
        throw new ToolFailure(
          `old_string was not found in ${target.relative}; read the file again with fs_read and copy the text exactly, whitespace and indentation included`,
        )
      }

      if (count > 1 && !input.replace_all) {
        throw new ToolFailure(
          `old_string was found ${count} times in ${target.relative}; add surrounding lines to make it unique, or set replace_all to replace every occurrence`,
        )
      }

      // split/join rather than String.replace, whose replacement string gives `$&` and `$1` a meaning.
      const after = before.split(oldString).join(newString)
      await writeFileAtomic(target.absolute, after)
      const patch = createPatch(target.relative, before, after, undefined, undefined, {
        context: 3,
        headerOptions: FILE_HEADERS_ONLY,
        maxEditLength: DIFF_MAX_EDIT_LENGTH,
      })
      const summary = `Edited ${target.relative}: replaced ${count} occurrence${count === 1 ? '' : 's'}.`
      const text =
        patch === undefined
          ? `${summary} (The diff is too large to show; read the file to check it.)`
          : `${summary}\n\n${patch}`
      return toolOk(text, {files: [{after, before, path: target.relative}], kind: 'edit'})
    } catch (error) {
      return failureResult(error, input.path)
    }
  },
}

async function readEditableText(absolute: string, display: string): Promise<string> {
  const {handle, size} = await openRegularFile(absolute, display)
  let bytes: Buffer | undefined
  try {
    bytes = await readUpTo(handle, EDIT_MAX_BYTES, size)
  } finally {
    await handle.close()
  }

  if (bytes === undefined)
    throw new ToolFailure(
      `${display} is larger than ${EDIT_MAX_BYTES / 1024 / 1024} MB; fs_edit does not edit files that large (use exec with a tool such as sed)`,
    )
  if (looksBinary(bytes))
    throw new ToolFailure(`${display} looks like a binary file (a NUL byte in its first 8 KB); fs_edit only edits text`)
  const text = bytes.toString('utf8')
  // Writing back text that did not decode cleanly would change bytes nobody asked to change.
  if (!Buffer.from(text, 'utf8').equals(bytes))
    throw new ToolFailure(`${display} is not valid UTF-8; fs_edit would alter it beyond the edit (use exec instead)`)
  return text
}

/**
 * How often the model's old_string occurs, and the strings to use. A file with CRLF line endings
 * reads back through fs_read without the CR, so an old_string with bare LF newlines that is not
 * found as given is looked for (and new_string written) with CRLF instead.
 */
export function locate(text: string, input: FsEditInput): {count: number; oldString: string; newString: string} {
  const count = occurrences(text, input.old_string)
  if (count > 0 || !text.includes('\r\n') || !input.old_string.includes('\n') || input.old_string.includes('\r')) {
    return {count, newString: input.new_string, oldString: input.old_string}
  }

  const crlf = (s: string) => s.replaceAll('\r\n', '\n').replaceAll('\n', '\r\n')
  const oldString = crlf(input.old_string)
  return {count: occurrences(text, oldString), newString: crlf(input.new_string), oldString}
}

/** Non-overlapping occurrences, the ones split/join replaces. */
function occurrences(text: string, needle: string): number {
  let count = 0
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++
  return count
}
