import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {agentFlags, exitCode, openAgent} from '../agent-command.js'
import {DEFAULT_MAX_ROUNDS, runAuto} from '../stages.js'

export default class Auto extends Command {
  static description = `Carry out a task end to end: plan, code, review, and fix what the review finds.

HIP-301 §13's autonomous agent, in stages on one session, each with its own history and all under the same permission rules, approvals, hooks, sandbox and audit log: plan (a planning agent, no tools), then code (a coding agent with every tool, given the plan), then review (a read-only agent given the change: the working tree's git diff, else the files written; it answers VERDICT: pass or fail). While the review fails and --max-rounds allows, it codes again with the review and reviews again.

Each stage streams under a heading; the end says which files changed and what the review concluded.

stream-json: {"type":"stage","event":"start"|"end",...} around each stage's own events, then {"type":"auto_result",...}; json: the auto_result object alone.

Exit codes: 0 the review passed, 1 it did not (or a stage stopped early, or an error), 2 usage, 130 interrupted.`

  static examples = [
    '<%= config.bin %> auto "add a --verbose flag"',
    '<%= config.bin %> auto "fix the flaky test in test/net.test.ts" --permission-mode allow-all --max-rounds 3',
    '<%= config.bin %> auto - --output-format stream-json < task.md',
  ]

  static args = {task: Args.string({description: 'The task; - reads it from stdin.', required: true})}

  static flags = {
    ...agentFlags,
    'max-rounds': Flags.integer({
      default: DEFAULT_MAX_ROUNDS,
      description: 'The most code rounds (each followed by a review).',
      min: 1,
    }),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Auto)
    const {output, session, task} = await openAgent(this, args.task, flags, {headings: true, tools: 'all'})
    let code: number
    try {
      const auto = await runAuto(session, task, {
        maxRounds: flags['max-rounds'],
        maxTurns: flags['max-turns'],
        observer: output,
      })
      output.autoEnd(auto)
      code = auto.stop === 'completed' ? (auto.review?.verdict === 'pass' ? 0 : 1) : exitCode(auto.stop)
    } catch (error) {
      output.fail(error instanceof Error ? error.message : String(error))
      throw error
    } finally {
      await session.close()
    }

    if (code !== 0) this.exit(code)
  }
}
