import type {ToolDefinition} from '@hanzo-dev/sdk'

import {writeFileAtomic} from '../atomic-write.js'
import {fileSnapshot} from './file-snapshot.js'
import {objectSchema, pathProperty} from './input-schema.js'
import {pathLocations, pathSubject} from './path-call.js'
import {editedResult, readEditableText, replaceExactly, type StringEdit, STRING_EDIT_PROPERTIES} from './string-edit.js'
import {failureResult, ToolFailure} from './tool-failure.js'
import {resolveToolPath} from './workspace-path.js'

export type FsMultiEditInput = {path: string; edits: StringEdit[]}

/** Past this many edits in one call the model is rewriting the file; fs_write says so in one diff. */
const MAX_EDITS = 100

/**
 * Several exact replacements in one file, in order, all or nothing: the form of edit Claude models
 * are trained on (Claude Code's MultiEdit), which saves a round trip and a half-edited file when
 * one change needs several places.
 */
export const fsMultiEdit: ToolDefinition<FsMultiEditInput> = {
  name: 'fs_multi_edit',
  aliases: ['MultiEdit'],
  description: [
    'Several exact replacements in one text file, applied in order (each on the text the previous left, with the rules of fs_edit), all or nothing: if one cannot be made nothing is written and the error names it.',
    'Returns the unified diff. Prefer it to several fs_edit calls on one file.',
  ].join(' '),
  inputSchema: objectSchema(
    {
      path: pathProperty('The file to edit'),
      edits: {
        type: 'array',
        description: 'The replacements, applied in this order.',
        minItems: 1,
        maxItems: MAX_EDITS,
        items: objectSchema(STRING_EDIT_PROPERTIES, ['old_string', 'new_string']),
      },
    },
    ['path', 'edits'],
  ),
  mutating: true,
  kind: 'edit',
  subject: pathSubject,
  describe: (input) => `${input.path} (${input.edits.length} edit${input.edits.length === 1 ? '' : 's'})`,
  locations: pathLocations,
  async preview(input, context) {
    const {before, path} = await fileSnapshot(context.cwd, input.path, context.hiddenPaths)
    if (typeof before === 'string') {
      try {
        return [{after: applyEdits(before, input.edits, path).after, before, path}]
      } catch {
        // Some edit will fail, so nothing will be written: what the edits ask for, below.
      }
    }

    const join = (part: keyof StringEdit) => input.edits.map((edit) => edit[part]).join('\n')
    return [{after: join('new_string'), before: join('old_string'), path}]
  },
  async execute(input, context) {
    try {
      const target = await resolveToolPath(context.cwd, input.path, context.hiddenPaths)
      const before = await readEditableText(target.absolute, target.relative, 'fs_multi_edit')
      const {after, count} = applyEdits(before, input.edits, target.relative)
      await writeFileAtomic(target.absolute, after)
      const edits = input.edits.length
      const summary = `Edited ${target.relative}: ${edits} edit${edits === 1 ? '' : 's'}, replaced ${count} occurrence${count === 1 ? '' : 's'}.`
      return editedResult(target.relative, before, after, summary)
    } catch (error) {
      return failureResult(error, input.path)
    }
  },
}

/**
 * `text` with every edit made in order, and the occurrences replaced in all; the first edit that
 * cannot be made is a {@link ToolFailure} naming it, and nothing is made.
 */
export function applyEdits(
  text: string,
  edits: readonly StringEdit[],
  display: string,
): {after: string; count: number} {
  let after = text
  let count = 0
  for (const [index, edit] of edits.entries()) {
    try {
      const made = replaceExactly(after, edit, display)
      after = made.after
      count += made.count
    } catch (error) {
      if (!(error instanceof ToolFailure)) throw error
      const earlier = index === 0 ? '' : ` (on the text edit${index === 1 ? ' 1' : `s 1-${index}`} left)`
      throw new ToolFailure(
        `edit ${index + 1} of ${edits.length} failed${earlier}: ${error.message}. Nothing was written; fix that edit and call fs_multi_edit again with all the edits`,
      )
    }
  }

  return {after, count}
}
