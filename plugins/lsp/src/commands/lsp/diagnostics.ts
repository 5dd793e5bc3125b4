import {makePaint, printable} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {coveredFile, EXIT_NO, withServers} from '../../command-support.js'
import {type DiagnosticItem, fileDiagnostics, formatDiagnostic} from '../../queries.js'

export interface LspDiagnosticsResult {
  files: Array<{path: string; diagnostics: DiagnosticItem[]}>
  errors: number
  warnings: number
}

export default class LspDiagnostics extends Command {
  static enableJsonFlag = true
  static strict = false

  static description = `Print the errors and warnings the language servers report for each FILE.

Each file goes to the server of its language (started for the command, found on PATH or in the project's node_modules/.bin, or set in lsp.servers); hints are left out. Lines and columns are 1-based: path:line:column: severity: message [source code].

Exit codes: 0 no errors (warnings allowed), 1 some file has errors, 2 a missing file or one no server covers, 3 the server is not installed or did not start.`

  static examples = [
    '<%= config.bin %> lsp diagnostics src/index.ts',
    '<%= config.bin %> lsp diagnostics $(git diff --name-only -- "*.ts") || echo "type errors"',
    '<%= config.bin %> lsp diagnostics app.py --json | jq ".files[].diagnostics[] | select(.severity == \\"error\\")"',
  ]

  static args = {
    file: Args.string({description: 'A source file; give several to check each.', required: true}),
  }

  async run(): Promise<LspDiagnosticsResult> {
    const {argv, flags} = await this.parse(LspDiagnostics)
    const result = await withServers(this, async (manager, cwd) => {
      const files = await Promise.all((argv as string[]).map((path) => coveredFile(manager, path, cwd)))
      const reports = await Promise.all(
        files.map(async (file) => ({diagnostics: await fileDiagnostics(manager, file), path: file.relative})),
      )
      const all = reports.flatMap((r) => r.diagnostics)
      return {
        errors: all.filter((d) => d.severity === 'error').length,
        files: reports,
        warnings: all.filter((d) => d.severity === 'warning').length,
      }
    })
    if (result.errors > 0) process.exitCode = EXIT_NO
    if (!flags.json) this.log(render(result))
    return result
  }
}

function render({errors, files, warnings}: LspDiagnosticsResult): string {
  const paint = makePaint()
  const lines = files.flatMap((f) =>
    f.diagnostics.map((d) =>
      d.severity === 'error' ? paint.red(printable(formatDiagnostic(d))) : printable(formatDiagnostic(d)),
    ),
  )
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  lines.push(`${count(errors, 'error')}, ${count(warnings, 'warning')} in ${count(files.length, 'file')}`)
  return lines.join('\n')
}
