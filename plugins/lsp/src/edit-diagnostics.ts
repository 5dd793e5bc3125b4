import {access} from 'node:fs/promises'

import type {Middleware, ToolCall, ToolContext, ToolExecutorFn, ToolLocation} from '@hanzo-dev/sdk'
import type {Diagnostic} from 'vscode-languageserver-protocol'

import type {DiagnosticsReport} from './lsp-client.js'
import {type DiagnosticItem, formatDiagnostic, lateText, toDiagnosticItems} from './queries.js'
import type {CoveredFile, ServerManager} from './server-manager.js'

/** More than this buries the edit's own result; the model can ask lsp_diagnostics for the rest. */
export const MAX_EDIT_DIAGNOSTICS = 10

/**
 * HIP-301 §8's context enrichment: after a successful call of an edit tool (ToolCall's kind, any
 * tool's) on files a server covers (its locations), the result gets the errors and warnings that
 * are new since before the edit (the ones a file already had are not repeated, wherever the edit
 * moved them). Nothing is added when there are none, when no server covers the files, or when
 * the call is interrupted; a server that reported nothing in time is said so, never taken
 * for a clean file. It runs inside the sandbox middleware, whose `confineProcess` starts
 * the server (the sandbox plugin comes first in the root package.json's plugin list, the order
 * the host applies middleware in).
 */
export function editDiagnostics(manager: ServerManager): Middleware {
  return {
    name: 'lsp-diagnostics',
    wrap: (next: ToolExecutorFn) => async (call: ToolCall, context: ToolContext) => {
      const files = call.kind === 'edit' ? await covered(manager, call.locations ?? [], context) : []
      if (files.length === 0) return next(call, context)
      const before: Array<DiagnosticsReport | undefined> = []
      for (const file of files)
        before.push((await exists(file.path)) ? await quietly(manager, file) : {complete: true, items: []})
      const result = await next(call, context)
      if (result.is_error || context.signal.aborted) return result
      const reports: string[] = []
      for (const [index, file] of files.entries()) {
        const report = await freshReport(manager, file, before[index])
        if (report) reports.push(report)
      }

      return reports.length === 0 ? result : {...result, output: `${result.output}\n\n${reports.join('\n\n')}`}
    },
  }
}

/** The files of `locations` a server covers, each once. */
async function covered(
  manager: ServerManager,
  locations: readonly ToolLocation[],
  context: ToolContext,
): Promise<CoveredFile[]> {
  const files = new Map<string, CoveredFile>()
  for (const {path} of locations) {
    const file = await manager.cover(path, context.cwd, context.confineProcess).catch(() => undefined)
    if (file) files.set(file.path, file)
  }

  return [...files.values()]
}

/**
 * What is new in `file` since `before`, rendered; undefined when nothing is, or when the server
 * is in trouble (the manager says so once). When the server reported nothing in time before the
 * edit, every error and warning after it is shown, since which are new is not known.
 */
async function freshReport(
  manager: ServerManager,
  file: CoveredFile,
  before: DiagnosticsReport | undefined,
): Promise<string | undefined> {
  const after = before && (await quietly(manager, file))
  if (!before || !after) return undefined
  if (!after.complete)
    return `${lateText(file.relative, after)}: this change is not checked; lsp_diagnostics asks again.`
  const shown = (before.complete ? newSince(before.items, after.items) : after.items).filter(
    (d) => (d.severity ?? 1) <= 2,
  )
  if (shown.length === 0) return undefined
  return render(await toDiagnosticItems(shown, file, await manager.workspaceRoot()), file, before.complete)
}

/** The diagnostics in `after` that `before` did not have, compared by what they say, not where (an edit moves lines). */
export function newSince(before: readonly Diagnostic[], after: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Map<string, number>()
  for (const d of before) seen.set(key(d), (seen.get(key(d)) ?? 0) + 1)
  return after.filter((d) => {
    const left = seen.get(key(d)) ?? 0
    if (left > 0) seen.set(key(d), left - 1)
    return left === 0
  })
}

function render(items: DiagnosticItem[], file: CoveredFile, onlyNew: boolean): string {
  const errors = items.filter((d) => d.severity === 'error').length
  const counts = [
    errors && `${errors} error${errors === 1 ? '' : 's'}`,
    items.length - errors && `${items.length - errors} warning${items.length - errors === 1 ? '' : 's'}`,
  ]
  const lines = [
    `${onlyNew ? 'New diagnostics' : 'Diagnostics'} in ${file.relative} after this change (${counts.filter(Boolean).join(', ')}; lines and columns 1-based):`,
  ]
  lines.push(...items.slice(0, MAX_EDIT_DIAGNOSTICS).map(formatDiagnostic))
  if (items.length > MAX_EDIT_DIAGNOSTICS)
    lines.push(`... and ${items.length - MAX_EDIT_DIAGNOSTICS} more (lsp_diagnostics lists them all)`)
  return lines.join('\n')
}

function key(d: Diagnostic): string {
  return JSON.stringify([d.severity ?? 1, d.source, d.code, d.message])
}

/** An edit is never held up by a server's trouble: the manager reports it, the edit goes on without diagnostics. */
async function quietly(manager: ServerManager, file: CoveredFile): Promise<DiagnosticsReport | undefined> {
  try {
    return await manager.diagnostics(file)
  } catch {
    return undefined
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  )
}
