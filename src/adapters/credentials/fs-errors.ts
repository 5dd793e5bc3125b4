import {dirname} from 'node:path'

import {UserError} from '../../core/errors.js'

/**
 * A file system error on a credential path as one clear line naming the path; UserErrors (a
 * refused link) and errors without an errno (bugs) pass through unchanged.
 */
export function cannotUse(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (error instanceof UserError || typeof code !== 'string') return error
  const why =
    code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'read-only file system' : code
  return new UserError(`Cannot use ${path} (${why})`, {hint: `check the permissions of ${dirname(path)}`})
}
