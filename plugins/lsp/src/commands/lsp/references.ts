import {printable} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {formatLocation, references} from '../../queries.js'
import {locationsAt, type LspLocationsResult} from './definition.js'

export default class LspReferences extends Command {
  static enableJsonFlag = true

  static description = `Print every reference to the symbol at FILE:LINE:COL, its declaration included.

LINE and COL are 1-based, as editors show them. Each reference is printed as path:line:column: the line's text. Exit codes: 0 found, 1 none, 2 a missing file or a bad FILE:LINE:COL, 3 no server for the file.`

  static examples = [
    '<%= config.bin %> lsp references src/lib.ts:3:17',
    '<%= config.bin %> lsp references src/lib.ts:3:17 --json | jq ".locations | length"',
  ]

  static args = {
    position: Args.string({description: 'FILE:LINE:COL of a character of the symbol (1-based).', required: true}),
  }

  async run(): Promise<LspLocationsResult> {
    const {args, flags} = await this.parse(LspReferences)
    const result = await locationsAt(this, args.position, references)
    if (!flags.json)
      this.log(
        result.locations.length > 0
          ? printable(result.locations.map(formatLocation).join('\n'))
          : 'No references found there.',
      )
    return result
  }
}
