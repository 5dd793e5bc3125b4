import {type ToolResult, toolError} from '@hanzo-dev/sdk'

import {UserError} from '../../core/errors.js'

/**
 * A failure the model should read and act on ("old_string was found 3 times"). Tools throw it
 * from deep inside their helpers; {@link failureResult} turns it into a tool error.
 */
export class ToolFailure extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ToolFailure'
  }
}

const ERRNO_TEXT: Record<string, string> = {
  EACCES: 'permission denied',
  EEXIST: 'a part of the path exists and is not a directory',
  EISDIR: 'is a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'the name is too long',
  ENOENT: 'no such file or directory',
  ENOSPC: 'no space left on the device',
  ENOTDIR: 'a part of the path is not a directory',
  ENOTEMPTY: 'the directory is not empty',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
}

/**
 * The tool error for what a tool threw while working on `subject` (a workspace-relative path):
 * its own failures and the user-facing errors of shared helpers as they are, file-system errors
 * as one line the model can act on. Anything else is a bug and is rethrown so it keeps its stack.
 */
export function failureResult(error: unknown, subject: string): ToolResult {
  if (error instanceof ToolFailure) return toolError(error.message)
  if (error instanceof UserError) return toolError(error.hint ? `${error.message} (${error.hint})` : error.message)
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return toolError(`${subject}: ${ERRNO_TEXT[code] ?? code}`)
  throw error
}
