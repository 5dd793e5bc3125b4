import {loadCommandHost, makePaint, printable} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {Command} from '@oclif/core/command'

import {argumentsIn} from '../../arguments.js'
import {sandboxForHost} from '../../host-sandbox.js'
import type {IsolationMode} from '../../isolation.js'

export interface PathCheck {
  /** As given. */
  path: string
  /** Where it leads: symlinks and `..` resolved. */
  resolved: string
  allowed: boolean
  reason?: string
}

export interface SandboxCheckResult {
  mode: IsolationMode
  workspace: string
  write: boolean
  results: PathCheck[]
}

export default class SandboxCheck extends Command {
  static enableJsonFlag = true
  // Any number of paths.
  static strict = false

  static description = `Say whether the sandbox lets the agent's tools at each PATH, and why not.

The check the file tools get (and exec's working directory): the path is resolved from the current directory, through symlinks (a dangling one by its target) and '..', and must land inside the workspace (workspace mode), or the workspace and the allowed paths (allowlist mode). With --write it is checked for writing: only the allowed paths in allowlist mode, never a protected path (.git/hooks, .git/config, .hanzo/, hanzo-dev's settings and data), never a file with more than one hard link. Exits 1 when any path is refused.`

  static examples = [
    '<%= config.bin %> sandbox check src/index.ts ../elsewhere',
    '<%= config.bin %> sandbox check --write .git/hooks/pre-commit',
    '<%= config.bin %> sandbox check --json link-to-home | jq .results[0].reason',
  ]

  static args = {
    path: Args.string({description: 'A path to check; give several to check each.', required: true}),
  }

  static flags = {
    write: Flags.boolean({description: 'Check for writing (fs_write, fs_edit) instead of reading.'}),
  }

  async run(): Promise<SandboxCheckResult> {
    const {flags, raw} = await this.parse(SandboxCheck)
    const host = await loadCommandHost(this)
    const made = await sandboxForHost(host)
    if ('problem' in made)
      this.error(`${made.problem} (hanzo-dev config list --show-origin shows which file sets it)`, {exit: 1})
    const {sandbox} = made
    const results: PathCheck[] = []
    for (const path of argumentsIn(raw)) {
      const verdict = await sandbox.checkPath(path, {cwd: host.cwd, write: flags.write})
      results.push({
        allowed: verdict.allowed,
        path,
        reason: verdict.allowed ? undefined : verdict.reason,
        resolved: verdict.path,
      })
    }

    if (results.some((r) => !r.allowed)) process.exitCode = 1
    const result = {mode: sandbox.config.mode, results, workspace: sandbox.workspace, write: flags.write}
    if (!flags.json) this.log(render(result))
    return result
  }
}

function render(result: SandboxCheckResult): string {
  const paint = makePaint()
  const lines = result.results.map((r) =>
    r.allowed
      ? `${paint.green('allowed')}  ${printable(r.resolved)}`
      : `${paint.red('refused')}  ${printable(r.reason ?? '')}`,
  )
  if (result.mode === 'off') lines.push(paint.dim('(sandbox mode is off: every path is allowed)'))
  return lines.join('\n')
}
