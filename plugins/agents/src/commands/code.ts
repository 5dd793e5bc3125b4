import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {agentFlags} from '../agent-command.js'
import {builtinStage, runOneStage} from '../run-stage-command.js'

export default class Code extends Command {
  static description = `Implement a change: a coding agent with every tool, under your rules.

A coding agent (HIP-301 §13) under your permission rules, hooks and sandbox: it reads, edits and runs commands as \`run\` does, asking before anything the permission rules do not allow (off a terminal it denies instead). TASK - reads it from stdin.

Exit codes: 0 done, 1 error or stopped at --max-turns, 2 usage, 130 interrupted.`

  static examples = [
    '<%= config.bin %> code "add a --verbose flag to the CLI"',
    '<%= config.bin %> plan "add a cache" -o PLAN.md && <%= config.bin %> code - < PLAN.md',
    '<%= config.bin %> code "make the tests pass" --permission-mode allow-all --max-turns 40',
  ]

  static args = {task: Args.string({description: 'The task; - reads it from stdin.', required: true})}
  static flags = agentFlags

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Code)
    const {code} = await runOneStage(this, args.task, flags, builtinStage('code', {maxTurns: flags['max-turns']}), {
      tools: 'all',
    })
    if (code !== 0) this.exit(code)
  }
}
