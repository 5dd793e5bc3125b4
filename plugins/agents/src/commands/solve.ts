import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {agentFlags} from '../agent-command.js'
import {builtinStage, runOneStage} from '../run-stage-command.js'

export default class Solve extends Command {
  static description = `Reason through a problem and answer it, without changing anything.

A problem-solving agent (HIP-301 §13) with the read-only tools (file reads, listings, searches, and plugins' read-only tools). A write, an edit or a command the model asks for is refused. TASK - reads it from stdin.

Exit codes: 0 done, 1 error or stopped at --max-turns, 2 usage, 130 interrupted.`

  static examples = [
    '<%= config.bin %> solve "why does the parser drop trailing commas?"',
    'npm test 2>&1 | <%= config.bin %> solve "explain these failures"',
  ]

  static args = {task: Args.string({description: 'The problem; - reads it from stdin.', required: true})}
  static flags = agentFlags

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Solve)
    const {code} = await runOneStage(this, args.task, flags, builtinStage('solve', {maxTurns: flags['max-turns']}), {
      tools: 'read-only',
    })
    if (code !== 0) this.exit(code)
  }
}
