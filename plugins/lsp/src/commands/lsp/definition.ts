import {printable} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {coveredFile, EXIT_NO, parsePosition, withServers} from '../../command-support.js'
import {definitions, formatLocation, type SourceLocation} from '../../queries.js'

export interface LspLocationsResult {
  file: string
  line: number
  column: number
  locations: SourceLocation[]
}

export default class LspDefinition extends Command {
  static enableJsonFlag = true

  static description = `Print where the symbol at FILE:LINE:COL is defined.

LINE and COL are 1-based, as editors show them. Each definition is printed as path:line:column: the line's text. Exit codes: 0 found, 1 no definition there, 2 a missing file or a bad FILE:LINE:COL, 3 no server for the file.`

  static examples = [
    '<%= config.bin %> lsp definition src/app.ts:12:5',
    '<%= config.bin %> lsp definition src/app.ts:12:5 --json | jq -r ".locations[0].path"',
  ]

  static args = {
    position: Args.string({description: 'FILE:LINE:COL of a character of the symbol (1-based).', required: true}),
  }

  async run(): Promise<LspLocationsResult> {
    const {args, flags} = await this.parse(LspDefinition)
    const result = await locationsAt(this, args.position, definitions)
    if (!flags.json)
      this.log(
        result.locations.length > 0
          ? printable(result.locations.map(formatLocation).join('\n'))
          : 'No definition found there.',
      )
    return result
  }
}

/** The shared body of `lsp definition` and `lsp references`; exit 1 when there is nothing. */
export async function locationsAt(
  command: Command,
  position: string,
  query: typeof definitions,
): Promise<LspLocationsResult> {
  const result = await withServers(command, async (manager, cwd) => {
    const at = parsePosition(position)
    const file = await coveredFile(manager, at.path, cwd)
    return {column: at.column, file: file.relative, line: at.line, locations: await query(manager, file, at)}
  })
  if (result.locations.length === 0) process.exitCode = EXIT_NO
  return result
}
