import {readFile} from 'node:fs/promises'
import {relative, sep} from 'node:path'
import {fileURLToPath} from 'node:url'

import {isInside} from '@hanzo-dev/sdk'
import type {
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  MarkedString,
  SymbolInformation,
} from 'vscode-languageserver-protocol'

import type {DiagnosticsReport, LspClient} from './lsp-client.js'
import {LspError} from './lsp-client.js'
import type {CoveredFile, ServerManager} from './server-manager.js'

/**
 * What the tools and commands answer, in the units people read: 1-based lines and 1-based
 * columns (columns count UTF-16 code units, which are characters outside emoji and a few
 * scripts). The wire's 0-based positions stay inside the client.
 */
export interface SourcePosition {
  line: number
  column: number
}

export interface SourceLocation extends SourcePosition {
  /** Relative to the project root when inside it, else absolute. */
  path: string
  end: SourcePosition
  /** The text of the line it starts on, trimmed. */
  text?: string
}

export type Severity = 'error' | 'warning' | 'info'

export interface DiagnosticItem extends SourceLocation {
  severity: Severity
  message: string
  code?: string
  source?: string
}

/** A file's diagnostics, or the server that reported nothing in time and how long it was waited for. */
export type FileDiagnostics = {complete: true; items: DiagnosticItem[]} | Extract<DiagnosticsReport, {complete: false}>

export interface SymbolItem extends SourcePosition {
  name: string
  kind: string
  /** Nesting depth in the file's outline (0: top level). */
  depth: number
  detail?: string
}

const SEVERITIES: Record<number, Severity> = {1: 'error', 2: 'warning', 3: 'info'}
/** SymbolKind 1..26, by the protocol's numbering. */
const SYMBOL_KINDS = [
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum member',
  'struct',
  'event',
  'operator',
  'type parameter',
]

/**
 * Runs `work` on the file's server once it has settled the file's diagnostics: before that it may
 * not have loaded the project (tsserver answers references from the open file alone).
 */
function loaded<T>(manager: ServerManager, file: CoveredFile, work: (client: LspClient) => Promise<T>): Promise<T> {
  return onServer(manager, file, async (client) => {
    await client.diagnostics(file.uri)
    return work(client)
  })
}

/** Runs `work` on the file's server; an {@link LspError} saying why when there is none. */
export async function onServer<T>(
  manager: ServerManager,
  file: CoveredFile,
  work: (client: LspClient) => Promise<T>,
): Promise<T> {
  const answer = await manager.withFile(file, work)
  if (answer !== undefined) return answer
  throw new LspError((await manager.unavailable(file)) ?? `${file.language.name} language server is not available`)
}

export async function fileDiagnostics(manager: ServerManager, file: CoveredFile): Promise<FileDiagnostics> {
  const report = await onServer(manager, file, (client) => client.diagnostics(file.uri))
  if (!report.complete) return report
  return {complete: true, items: await toDiagnosticItems(report.items, file, await manager.workspaceRoot())}
}

/**
 * What every caller says when the server reported nothing in time: the command, the model's
 * tool and an edit's result alike, so silence is never read as a clean file.
 */
export function lateText(path: string, {server, waitedMs}: {server: string; waitedMs: number}): string {
  return `${path}: no diagnostics yet from ${server} after ${Number((waitedMs / 1000).toFixed(1))} s (it did not report in time; it may still be loading the project)`
}

export async function toDiagnosticItems(
  items: Diagnostic[],
  file: CoveredFile,
  root: string,
): Promise<DiagnosticItem[]> {
  const lines = await fileLines(file.path)
  return items
    .map((d) => ({
      ...locationOf({range: d.range, uri: file.uri}, root, lines),
      ...(d.code === undefined ? {} : {code: String(d.code)}),
      message: typeof d.message === 'string' ? d.message : d.message.value,
      severity: SEVERITIES[d.severity ?? 1] ?? 'info',
      ...(d.source ? {source: d.source} : {}),
    }))
    .sort((a, b) => a.line - b.line || a.column - b.column)
}

export async function definitions(
  manager: ServerManager,
  file: CoveredFile,
  at: SourcePosition,
): Promise<SourceLocation[]> {
  return withText(
    await loaded(manager, file, (client) => client.gotoDefinition(file.uri, wire(at))),
    await manager.workspaceRoot(),
  )
}

export async function references(
  manager: ServerManager,
  file: CoveredFile,
  at: SourcePosition,
): Promise<SourceLocation[]> {
  return withText(
    await loaded(manager, file, (client) => client.findReferences(file.uri, wire(at))),
    await manager.workspaceRoot(),
  )
}

export async function hoverText(manager: ServerManager, file: CoveredFile, at: SourcePosition): Promise<string | null> {
  const hover = await loaded(manager, file, (client) => client.hover(file.uri, wire(at)))
  return hover ? plainHover(hover) : null
}

export async function symbols(manager: ServerManager, file: CoveredFile): Promise<SymbolItem[]> {
  const found = await loaded(manager, file, (client) => client.documentSymbols(file.uri))
  const out: SymbolItem[] = []
  const walk = (list: DocumentSymbol[], depth: number) => {
    for (const s of list) {
      out.push({
        column: s.selectionRange.start.character + 1,
        depth,
        kind: kindName(s.kind),
        line: s.selectionRange.start.line + 1,
        name: s.name,
        ...(s.detail ? {detail: s.detail} : {}),
      })
      walk(s.children ?? [], depth + 1)
    }
  }

  if (found.length > 0 && 'location' in found[0]) {
    for (const s of found as SymbolInformation[]) {
      out.push({
        column: s.location.range.start.character + 1,
        depth: s.containerName ? 1 : 0,
        kind: kindName(s.kind),
        line: s.location.range.start.line + 1,
        name: s.name,
      })
    }
  } else walk(found as DocumentSymbol[], 0)

  return out
}

/** `path:line:column` with the line's text: one line per location, as compilers print them. */
export function formatLocation(l: SourceLocation): string {
  return `${l.path}:${l.line}:${l.column}${l.text ? `: ${l.text}` : ''}`
}

export function formatDiagnostic(d: DiagnosticItem): string {
  const origin = [d.source, d.code].filter(Boolean).join(' ')
  return `${d.path}:${d.line}:${d.column}: ${d.severity}: ${d.message.trim().replaceAll(/\s*\n\s*/g, '; ')}${origin ? ` [${origin}]` : ''}`
}

export function formatSymbol(s: SymbolItem): string {
  return `${'  '.repeat(s.depth)}${s.kind} ${s.name}${s.detail ? ` ${s.detail}` : ''}  (line ${s.line})`
}

function wire(at: SourcePosition) {
  return {character: at.column - 1, line: at.line - 1}
}

function kindName(kind: number): string {
  return SYMBOL_KINDS[kind - 1] ?? 'symbol'
}

function plainHover(hover: Hover): string {
  const parts: Array<MarkedString | {kind: string; value: string}> = Array.isArray(hover.contents)
    ? hover.contents
    : [hover.contents]
  return parts
    .map((p) => (typeof p === 'string' ? p : 'language' in p ? `\`\`\`${p.language}\n${p.value}\n\`\`\`` : p.value))
    .join('\n\n')
    .trim()
}

function locationOf(location: Location, root: string, lines?: string[]): SourceLocation {
  const {end, start} = location.range
  const absolute = location.uri.startsWith('file:') ? fileURLToPath(location.uri) : location.uri
  const path = isInside(root, absolute) ? relative(root, absolute).split(sep).join('/') : absolute
  const text = lines?.[start.line]?.trim()
  return {
    column: start.character + 1,
    end: {column: end.character + 1, line: end.line + 1},
    line: start.line + 1,
    path,
    ...(text ? {text} : {}),
  }
}

async function withText(locations: Location[], root: string): Promise<SourceLocation[]> {
  const files = new Map<string, Promise<string[] | undefined>>()
  return Promise.all(
    locations.map(async (l) => {
      if (!l.uri.startsWith('file:')) return locationOf(l, root)
      const path = fileURLToPath(l.uri)
      if (!files.has(path)) files.set(path, fileLines(path))
      return locationOf(l, root, await files.get(path))
    }),
  )
}

async function fileLines(path: string): Promise<string[] | undefined> {
  return readFile(path, 'utf8').then(
    (text) => text.split('\n'),
    () => undefined,
  )
}
