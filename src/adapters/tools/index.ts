import type {ToolDefinition} from '@hanzo-dev/sdk'

import {type ExecOptions, execTool} from './exec.js'
import {fsEdit} from './fs-edit.js'
import {fsGlob} from './fs-glob.js'
import {fsGrep} from './fs-grep.js'
import {fsList} from './fs-list.js'
import {fsRead} from './fs-read.js'
import {fsWrite} from './fs-write.js'
import {type WebFetchOptions, webFetchTool} from './web-fetch.js'

export {exec, type ExecInput, type ExecOptions, execTool} from './exec.js'
export {fsEdit, type FsEditInput} from './fs-edit.js'
export {fsGlob, type FsGlobInput} from './fs-glob.js'
export {fsGrep, type FsGrepInput, type GrepOutputMode} from './fs-grep.js'
export {fsList, type FsListInput} from './fs-list.js'
export {fsRead, type FsReadInput} from './fs-read.js'
export {fsWrite, type FsWriteInput} from './fs-write.js'
export {type WebFetchInput, type WebFetchOptions, webFetchTool} from './web-fetch.js'

/**
 * The built-in tools, in the order the model is told about them. Each is typed by its own input:
 * the executor validates a call against `inputSchema` before `execute` sees it.
 */
export function builtinTools(options: {exec?: ExecOptions; webFetch?: WebFetchOptions} = {}): ToolDefinition[] {
  return [fsRead, fsWrite, fsEdit, fsList, fsGlob, fsGrep, execTool(options.exec), webFetchTool(options.webFetch)]
}
