import {findExecutable, loadCommandHost, printable, shellQuote} from '@hanzo-dev/sdk'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {argumentsIn} from '../../arguments.js'
import {sandboxForHost} from '../../host-sandbox.js'
import type {Enforcement} from '../../isolation.js'
import {commandNote, removedNote} from '../../middleware.js'
import {runConfined} from '../../run-confined.js'

export interface SandboxExecResult {
  enforcement: Enforcement
  /** The command line the shell ran. */
  command: string
  exitCode: number
  signal: string | null
  stdout: string
  stderr: string
}

export default class SandboxExec extends Command {
  static enableJsonFlag = true
  // Everything after the flags is the command.
  static strict = false

  static description = `Run a command the way the agent's exec runs it: inside the sandbox.

The command runs by bash -c (sh -c where bash is missing) in the current directory, with stdin closed, confined by the mechanism in force here (bubblewrap, else an unshare mount namespace, else path checks only: see "sandbox status"). One argument is a command line (pipes and redirections work); several are quoted and joined. The output streams through, and the exit code is the command's (128 + the signal number when a signal ended it). With --json the output is collected into the result instead.`

  static examples = [
    "<%= config.bin %> sandbox exec -- 'touch ~/outside && echo written'",
    '<%= config.bin %> sandbox exec -- git status',
    '<%= config.bin %> sandbox exec --json -- getent hosts example.com | jq .exitCode',
  ]

  static args = {
    command: Args.string({description: 'The command, after --.', required: true}),
  }

  async run(): Promise<SandboxExecResult> {
    const {raw} = await this.parse(SandboxExec)
    const host = await loadCommandHost(this)
    const made = await sandboxForHost(host)
    if ('problem' in made)
      this.error(`${made.problem} (hanzo-dev config list --show-origin shows which file sets it)`, {exit: 1})
    const {sandbox} = made
    const confinement = await sandbox.confinement()
    const confined = await sandbox.confineCommand().catch((error: Error) => this.error(error.message, {exit: 1}))
    const words = argumentsIn(raw)
    const command = words.length === 1 ? words[0] : words.map((w) => shellQuote(w)).join(' ')
    const shell = (await findExecutable('bash', {cwd: host.cwd, env: host.env})) ?? '/bin/sh'
    const plain = [shell, '-c', command]
    if (!this.jsonEnabled() && sandbox.config.mode !== 'off') {
      this.logToStderr(
        printable(
          commandNote(confinement, confined?.writable ?? (await sandbox.roots()).writable, sandbox.config.network),
        ),
      )
    }

    const run = await runConfined(confined?.wrap(plain, host.cwd) ?? plain, {
      capture: this.jsonEnabled(),
      cwd: host.cwd,
      env: host.env,
    })
    const removed = (await confined?.finish()) ?? []
    if (removed.length > 0) this.logToStderr(printable(removedNote(removed)))
    process.exitCode = run.exitCode
    return {
      command,
      enforcement: confinement.enforcement,
      exitCode: run.exitCode,
      signal: run.signal,
      stderr: run.stderr,
      stdout: run.stdout,
    }
  }
}
