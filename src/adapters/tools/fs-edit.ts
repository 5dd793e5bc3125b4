import type {ToolDefinition} from '@hanzo-dev/sdk'

import {writeFileAtomic} from '../atomic-write.js'
import {fileSnapshot} from './file-snapshot.js'
import {objectSchema, pathProperty} from './input-schema.js'
import {pathLocations, pathSubject} from './path-call.js'
import {
  EDIT_MAX_BYTES,
  editedResult,
  readEditableText,
  replaceExactly,
  type StringEdit,
  STRING_EDIT_PROPERTIES,
} from './string-edit.js'
import {failureResult} from './tool-failure.js'
import {resolveToolPath} from './workspace-path.js'

export type FsEditInput = StringEdit & {path: string}

export const fsEdit: ToolDefinition<FsEditInput> = {
  name: 'fs_edit',
  aliases: ['Edit'],
  description: [
    'Edit a text file in the workspace by exact string replacement: old_string is replaced by new_string, and the result is a unified diff of the change.',
    'old_string must match the file exactly, whitespace and indentation included (copy it from fs_read output without the line-number prefix), and must occur exactly once unless replace_all is true:',
    'when it occurs several times, include more surrounding lines to make it unique.',
    `The write is atomic. To create a file or rewrite it whole use fs_write. Files over ${EDIT_MAX_BYTES / 1024 / 1024} MB, binary files, files that are not valid UTF-8 and files with more than one hard link are refused.`,
  ].join(' '),
  inputSchema: objectSchema({path: pathProperty('The file to edit'), ...STRING_EDIT_PROPERTIES}, [
    'path',
    'old_string',
    'new_string',
  ]),
  mutating: true,
  kind: 'edit',
  subject: pathSubject,
  describe: (input) => input.path,
  locations: pathLocations,
  async preview(input, context) {
    const {before, path} = await fileSnapshot(context.cwd, input.path, context.hiddenPaths)
    if (typeof before === 'string') {
      try {
        return [{after: replaceExactly(before, input, path).after, before, path}]
      } catch {
        // The edit will fail (the text is not there, or not once): what it asks for, below.
      }
    }

    return [{after: input.new_string, before: input.old_string, path}]
  },
  async execute(input, context) {
    try {
      const target = await resolveToolPath(context.cwd, input.path, context.hiddenPaths)
      const before = await readEditableText(target.absolute, target.relative, 'fs_edit')
      const {after, count} = replaceExactly(before, input, target.relative)
      await writeFileAtomic(target.absolute, after)
      const summary = `Edited ${target.relative}: replaced ${count} occurrence${count === 1 ? '' : 's'}.`
      return editedResult(target.relative, before, after, summary)
    } catch (error) {
      return failureResult(error, input.path)
    }
  },
}
