import type {ToolDefinition} from '@hanzo-dev/sdk'

import {BackgroundProcesses} from './background-processes.js'
import {type ExecOptions, execTool} from './exec.js'
import {execKillTool, execOutputTool} from './exec-background.js'
import {fsEdit} from './fs-edit.js'
import {fsGlob} from './fs-glob.js'
import {fsGrep} from './fs-grep.js'
import {fsList} from './fs-list.js'
import {fsMultiEdit} from './fs-multi-edit.js'
import {fsRead} from './fs-read.js'
import {fsWrite} from './fs-write.js'
import type {Skill} from '../skills.js'
import {skillTool} from './skill.js'
import {type TaskOptions, taskTool} from './task.js'
import {todoWrite} from './todo-write.js'
import {type WebFetchOptions, webFetchTool} from './web-fetch.js'
import {type WebSearchOptions, webSearchTool} from './web-search.js'

export {BackgroundProcesses, type BackgroundSummary, backgroundStatus} from './background-processes.js'
export {exec, type ExecInput, type ExecOptions, execTool} from './exec.js'
export {fsEdit, type FsEditInput} from './fs-edit.js'
export {fsGlob, type FsGlobInput} from './fs-glob.js'
export {fsGrep, type FsGrepInput, type GrepOutputMode} from './fs-grep.js'
export {fsList, type FsListInput} from './fs-list.js'
export {fsMultiEdit, type FsMultiEditInput} from './fs-multi-edit.js'
export {fsRead, type FsReadInput} from './fs-read.js'
export {fsWrite, type FsWriteInput} from './fs-write.js'
export {type SkillInput, skillTool} from './skill.js'
export {BUILTIN_SUBAGENTS, customSubagents, type SubagentType, subagentTypes} from './subagent-types.js'
export {type SubagentProgress, Subagents} from './subagents.js'
export {TASK_TOOL, type TaskInput, type TaskOptions, taskTool} from './task.js'
export {todoWrite, type TodoWriteInput} from './todo-write.js'
export {type WebFetchInput, type WebFetchOptions, webFetchTool} from './web-fetch.js'
export {type WebSearchInput, type WebSearchOptions, webSearchTool} from './web-search.js'

/**
 * The built-in tools, in the order the model is told about them. Each is typed by its own input:
 * the executor validates a call against `inputSchema` before `execute` sees it. `web_search` is
 * there only when the settings name a search provider.
 */
export function builtinTools(
  options: {
    exec?: ExecOptions
    webFetch?: WebFetchOptions
    webSearch?: WebSearchOptions
    skills?: readonly Skill[]
    task?: TaskOptions
  } = {},
): ToolDefinition[] {
  // The session passes its own, to end them when it closes.
  const background = options.exec?.background ?? new BackgroundProcesses()
  return [
    fsRead,
    fsWrite,
    fsEdit,
    fsMultiEdit,
    fsList,
    fsGlob,
    fsGrep,
    execTool({...options.exec, background}),
    execOutputTool(background),
    execKillTool(background),
    webFetchTool(options.webFetch),
    ...(options.webSearch ? [webSearchTool(options.webSearch)] : []),
    todoWrite,
    // Absent without skills: a tool with nothing to load would cost its schema on every request.
    ...(options.skills?.length ? [skillTool(options.skills)] : []),
    // Only a session can start children of itself.
    ...(options.task ? [taskTool(options.task)] : []),
  ]
}
