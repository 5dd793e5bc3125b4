import {printable} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {coveredFile, EXIT_NO, parsePosition, withServers} from '../../command-support.js'
import {hoverText} from '../../queries.js'

export interface LspHoverResult {
  file: string
  line: number
  column: number
  /** What the server shows on hover (often Markdown); null when it shows nothing there. */
  hover: string | null
}

export default class LspHover extends Command {
  static enableJsonFlag = true

  static description = `Print the type and documentation of the symbol at FILE:LINE:COL.

LINE and COL are 1-based, as editors show them. Exit codes: 0 found, 1 nothing there, 2 a missing file or a bad FILE:LINE:COL, 3 no server for the file.`

  static examples = [
    '<%= config.bin %> lsp hover src/app.ts:12:5',
    '<%= config.bin %> lsp hover app.py:3:1 --json | jq -r .hover',
  ]

  static args = {
    position: Args.string({description: 'FILE:LINE:COL of a character of the symbol (1-based).', required: true}),
  }

  async run(): Promise<LspHoverResult> {
    const {args, flags} = await this.parse(LspHover)
    const result = await withServers(this, async (manager, cwd) => {
      const at = parsePosition(args.position)
      const file = await coveredFile(manager, at.path, cwd)
      return {
        column: at.column,
        file: file.relative,
        hover: (await hoverText(manager, file, at)) || null,
        line: at.line,
      }
    })
    if (result.hover === null) process.exitCode = EXIT_NO
    if (!flags.json) this.log(result.hover === null ? 'Nothing to show there.' : printable(result.hover))
    return result
  }
}
