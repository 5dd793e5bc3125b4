import {type ToolContext, type ToolDefinition, type ToolResult, toolError, toolOk} from '@hanzo-dev/sdk'

import {
  definitions,
  fileDiagnostics,
  formatDiagnostic,
  formatLocation,
  formatSymbol,
  hoverText,
  lateText,
  references,
  symbols,
} from './queries.js'
import type {CoveredFile, ServerManager} from './server-manager.js'

/** Past this many locations a list costs more than it tells. */
export const MAX_LOCATIONS = 100
const POSITION_NOTE =
  'line and column are 1-based, as editors show them (the column counts characters from the start of the line).'

const pathProperty = {description: 'The source file, relative to the workspace or absolute.', type: 'string'}
const positionSchema = {
  additionalProperties: false,
  properties: {
    column: {description: 'The column of a character of the symbol, 1-based.', minimum: 1, type: 'integer'},
    line: {description: 'The line of the symbol, 1-based.', minimum: 1, type: 'integer'},
    path: pathProperty,
  },
  required: ['path', 'line', 'column'],
  type: 'object',
}
const fileSchema = {additionalProperties: false, properties: {path: pathProperty}, required: ['path'], type: 'object'}

type PathInput = {path: string}
type PositionInput = PathInput & {line: number; column: number}

/** The read-only code-intelligence tools, answered by the workspace's language servers. */
export function lspTools(manager: ServerManager): ToolDefinition[] {
  return [
    onPath({
      description: `The errors, warnings and notes a language server reports for a file (type errors, unresolved names, ...), as path:line:column: severity: message. Read-only.`,
      execute: (input, context) =>
        onFile(manager, input.path, context, async (file) => {
          const report = await fileDiagnostics(manager, file)
          if (!report.complete)
            return toolError(
              `${lateText(file.relative, report)}: this is not a clean result; call lsp_diagnostics again.`,
            )
          return report.items.length === 0
            ? `${file.relative}: no errors or warnings.`
            : report.items.map(formatDiagnostic).join('\n')
        }),
      inputSchema: fileSchema,
      mutating: false,
      name: 'lsp_diagnostics',
    }),
    at({
      description: `Where the symbol at a position is defined, as path:line:column: the line's text. ${POSITION_NOTE} Read-only.`,
      execute: (input, context) =>
        onFile(manager, input.path, context, async (file) =>
          locationList(await definitions(manager, file, input), 'No definition found at that position.'),
        ),
      inputSchema: positionSchema,
      mutating: false,
      name: 'lsp_definition',
    }),
    at({
      description: `Every reference to the symbol at a position (its declaration included), as path:line:column: the line's text. ${POSITION_NOTE} Read-only.`,
      execute: (input, context) =>
        onFile(manager, input.path, context, async (file) =>
          locationList(await references(manager, file, input), 'No references found at that position.'),
        ),
      inputSchema: positionSchema,
      mutating: false,
      name: 'lsp_references',
    }),
    at({
      description: `The type and documentation of the symbol at a position, as the language server shows them on hover. ${POSITION_NOTE} Read-only.`,
      execute: (input, context) =>
        onFile(
          manager,
          input.path,
          context,
          async (file) => (await hoverText(manager, file, input)) || 'Nothing to show at that position.',
        ),
      inputSchema: positionSchema,
      mutating: false,
      name: 'lsp_hover',
    }),
    onPath({
      description:
        'The outline of a file: its classes, functions, methods, variables, ... nested as in the file, each with its line (1-based). Read-only.',
      execute: (input, context) =>
        onFile(manager, input.path, context, async (file) => {
          const found = await symbols(manager, file)
          return found.length === 0 ? `${file.relative}: no symbols.` : found.map(formatSymbol).join('\n')
        }),
      inputSchema: fileSchema,
      mutating: false,
      name: 'lsp_symbols',
    }),
  ]
}

/**
 * What every lsp tool says of itself: it reads the file it names (rules match the path, the
 * sandbox checks it). The input types differ per tool; the registry holds them all alike.
 */
function onPath(tool: ToolDefinition<PathInput>): ToolDefinition {
  const described: ToolDefinition<PathInput> = {
    ...tool,
    describe: (input) => input.path,
    kind: 'read',
    locations: (input) => [{path: input.path}],
    subject: (input) => ({kind: 'path', path: input.path}),
  }
  return described as unknown as ToolDefinition
}

function at(tool: ToolDefinition<PositionInput>): ToolDefinition {
  const described: ToolDefinition<PositionInput> = {
    ...tool,
    describe: (input) => `${input.path}:${input.line}:${input.column}`,
    kind: 'read',
    locations: (input) => [{line: input.line, path: input.path}],
    subject: (input) => ({kind: 'path', path: input.path}),
  }
  return described as unknown as ToolDefinition
}

function locationList(locations: Parameters<typeof formatLocation>[0][], none: string): string {
  if (locations.length === 0) return none
  const shown = locations.slice(0, MAX_LOCATIONS).map(formatLocation)
  if (locations.length > MAX_LOCATIONS) shown.push(`... and ${locations.length - MAX_LOCATIONS} more`)
  return shown.join('\n')
}

async function onFile(
  manager: ServerManager,
  path: string,
  context: ToolContext,
  work: (file: CoveredFile) => Promise<string | ToolResult>,
): Promise<ToolResult> {
  try {
    const file = await manager.cover(path, context.cwd, context.confineProcess)
    if (!file) return toolError(await notCovered(manager, path))
    const result = await work(file)
    return typeof result === 'string' ? toolOk(result) : result
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return toolError(`${path}: no such file`)
    return toolError(error instanceof Error ? error.message : String(error))
  }
}

/** Why no server answers for `path`: outside the workspace, or a kind of file none covers. */
export async function notCovered(manager: ServerManager, path: string): Promise<string> {
  const languages = manager.languages().map((l) => l.files?.join(' ') ?? Object.keys(l.extensions).join(' '))
  return `${path}: no language server covers this file (it must be in the workspace ${await manager.workspaceRoot()} and be one of: ${languages.join(', ')})`
}
