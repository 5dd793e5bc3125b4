import {Chalk, type ChalkInstance} from 'chalk'
import {createPatch} from 'diff'

import {locate} from '../tools/fs-edit.js'
import {looksBinary, openRegularFile, readUpTo} from '../tools/text-file.js'
import {resolveToolPath} from '../tools/workspace-path.js'
import {capped, colouredDiff, fileLine} from './diff-view.js'

/** Lines of diff shown before a question; the rest is counted. */
export const PREVIEW_DIFF_LINES = 40
/** Lines of a new file shown before a question. */
export const PREVIEW_HEAD_LINES = 20
/** Larger files are not read for a preview (nor diffed: the diff's cost grows with both sides). */
const PREVIEW_MAX_BYTES = 1024 * 1024
/** Past this many changed lines a diff is not computed (fs_edit's own limit). */
const PREVIEW_MAX_EDIT_LENGTH = 5000

/**
 * What an fs_write or fs_edit call would change, shown before the permission question (lines to
 * print, indented, coloured with `style`, uncoloured without): the diff against the file as it is now, or the head of
 * a new file; nothing for other tools. It reads the file the way the tools do (inside the
 * workspace, regular files only), and when it cannot (outside the workspace, binary, too large)
 * it shows what it can from the call alone.
 */
export async function changePreview(toolName: string, input: Readonly<Record<string, unknown>>, options: {cwd: string; style?: ChalkInstance}): Promise<string[]> {
  const {path} = input
  if (typeof path !== 'string') return []
  const style = options.style ?? new Chalk({level: 0})
  if (toolName === 'fs_write' && typeof input.content === 'string') {
    const before = await currentText(options.cwd, path)
    if (typeof before === 'string') return diffLines(before, input.content, style)
    const lines = input.content === '' ? [] : input.content.replace(/\n$/, '').split('\n')
    const title = before === undefined ? `new file, ${plural(lines.length)}` : `the file as it is cannot be shown (outside the workspace, binary, or over 1 MB); new content, ${plural(lines.length)}`
    return indent([style.dim(`${title}:`), ...capped(lines, PREVIEW_HEAD_LINES).map((line, index) => (index === PREVIEW_HEAD_LINES ? style.dim(line) : style.green(`+${fileLine(line)}`)))])
  }

  if (toolName === 'fs_edit' && typeof input.old_string === 'string' && typeof input.new_string === 'string') {
    const edit = {new_string: input.new_string, old_string: input.old_string, path, replace_all: input.replace_all === true}
    const before = await currentText(options.cwd, path)
    if (typeof before === 'string' && edit.old_string !== '') {
      const {count, newString, oldString} = locate(before, edit)
      if (count === 1 || (count > 1 && edit.replace_all)) return diffLines(before, before.split(oldString).join(newString), style)
    }

    // The edit will fail (the text is not there, or not once): show what it asked for.
    return diffLines(edit.old_string, edit.new_string, style)
  }

  return []
}

/** The file's text; undefined when there is no file, null when it cannot be shown. */
async function currentText(cwd: string, path: string): Promise<string | undefined | null> {
  try {
    const target = await resolveToolPath(cwd, path)
    const {handle, size} = await openRegularFile(target.absolute, target.relative)
    try {
      const bytes = await readUpTo(handle, PREVIEW_MAX_BYTES, size)
      return bytes === undefined || looksBinary(bytes) ? null : bytes.toString('utf8')
    } finally {
      await handle.close()
    }
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null
  }
}

function diffLines(before: string, after: string, style: ChalkInstance): string[] {
  const patch = createPatch('', before, after, undefined, undefined, {context: 3, maxEditLength: PREVIEW_MAX_EDIT_LENGTH})
  if (patch === undefined) return indent([style.dim('(the change is too large to show)')])
  const lines = colouredDiff(patch, style, PREVIEW_DIFF_LINES)
  return indent(lines.length > 0 ? lines : [style.dim('(no change)')])
}

function indent(lines: string[]): string[] {
  return lines.map((line) => `  ${line}`)
}

function plural(count: number): string {
  return `${count} line${count === 1 ? '' : 's'}`
}
