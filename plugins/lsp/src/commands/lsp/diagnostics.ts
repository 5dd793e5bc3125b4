import {makePaint, printable} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {coveredFile, EXIT_NO, EXIT_NOT_REPORTED, withServers} from '../../command-support.js'
import {type DiagnosticItem, fileDiagnostics, formatDiagnostic, lateText} from '../../queries.js'

/** A file's diagnostics, or (complete: false) the server that sent none within the wait: never an empty list in their place. */
export type FileReport =
  | {path: string; complete: true; diagnostics: DiagnosticItem[]}
  | {path: string; complete: false; server: string; waitedMs: number}

export interface LspDiagnosticsResult {
  /** False when some file's server did not report within the wait: errors and warnings count the other files only. */
  complete: boolean
  files: FileReport[]
  errors: number
  warnings: number
}

export default class LspDiagnostics extends Command {
  static enableJsonFlag = true
  static strict = false

  static description = `Print the errors and warnings the language servers report for each FILE.

Each file goes to the server of its language (started for the command, found on PATH or in the project's node_modules/.bin, or set in lsp.servers); hints are left out. Lines and columns are 1-based: path:line:column: severity: message [source code]. A file whose server sends no diagnostics within the wait (--wait; else 10 seconds, time for the server to load the project) is shown as not checked, never as clean.

Exit codes: 0 no errors (warnings allowed), 1 some file has errors, 2 a missing file or one no server covers, 3 the server is not installed or did not start, 4 no errors found but some file's server did not report within the wait.`

  static examples = [
    '<%= config.bin %> lsp diagnostics src/index.ts',
    '<%= config.bin %> lsp diagnostics $(git diff --name-only -- "*.ts") || echo "type errors"',
    '<%= config.bin %> lsp diagnostics src/index.ts --wait 60   # a large project loads slowly',
    '<%= config.bin %> lsp diagnostics app.py --json | jq ".files[].diagnostics[] | select(.severity == \\"error\\")"',
  ]

  static args = {
    file: Args.string({description: 'A source file; give several to check each.', required: true}),
  }

  static flags = {
    wait: Flags.integer({
      description:
        "The most seconds to wait for each file's diagnostics, the server's start and project load included. [default: 10, or lsp.diagnostics_timeout_ms when longer]",
      helpValue: 'SECONDS',
      max: 120,
      min: 1,
    }),
  }

  async run(): Promise<LspDiagnosticsResult> {
    const {argv, flags} = await this.parse(LspDiagnostics)
    const waitMs = flags.wait === undefined ? undefined : flags.wait * 1000
    const result = await withServers(
      this,
      async (manager, cwd) => {
        const files = await Promise.all((argv as string[]).map((path) => coveredFile(manager, path, cwd)))
        const reports = await Promise.all(
          files.map(async (file): Promise<FileReport> => {
            const report = await fileDiagnostics(manager, file)
            return report.complete
              ? {complete: true, diagnostics: report.items, path: file.relative}
              : {complete: false, path: file.relative, server: report.server, waitedMs: report.waitedMs}
          }),
        )
        const all = reports.flatMap((r) => (r.complete ? r.diagnostics : []))
        return {
          complete: reports.every((r) => r.complete),
          errors: all.filter((d) => d.severity === 'error').length,
          files: reports,
          warnings: all.filter((d) => d.severity === 'warning').length,
        }
      },
      // The first diagnostics wait is the cold start's: --wait sets both.
      waitMs === undefined ? undefined : {coldStartMs: waitMs, diagnosticsTimeoutMs: waitMs},
    )
    // Errors found are the answer whatever the rest did; otherwise a file not checked is not a pass.
    if (result.errors > 0) process.exitCode = EXIT_NO
    else if (!result.complete) process.exitCode = EXIT_NOT_REPORTED
    if (!flags.json) this.log(render(result))
    return result
  }
}

function render({errors, files, warnings}: LspDiagnosticsResult): string {
  const paint = makePaint()
  const lines = files.flatMap((f) =>
    f.complete
      ? f.diagnostics.map((d) =>
          d.severity === 'error' ? paint.red(printable(formatDiagnostic(d))) : printable(formatDiagnostic(d)),
        )
      : [paint.yellow(`${printable(lateText(f.path, f))}; --wait SECONDS waits longer`)],
  )
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`
  const checked = files.filter((f) => f.complete).length
  const summary = [
    checked > 0 && `${count(errors, 'error')}, ${count(warnings, 'warning')} in ${count(checked, 'file')}`,
    checked < files.length && `${count(files.length - checked, 'file')} not checked`,
  ]
  lines.push(summary.filter(Boolean).join('; '))
  return lines.join('\n')
}
