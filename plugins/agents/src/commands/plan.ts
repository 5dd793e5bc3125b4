import {existsSync} from 'node:fs'
import {resolve} from 'node:path'
import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {agentFlags} from '../agent-command.js'
import {runOneStage} from '../run-stage-command.js'
import {runStage} from '../stages.js'

export default class Plan extends Command {
  static description = `Make a step-by-step plan for a task, without changing anything.

A planning agent (HIP-301 §13) answers with a numbered plan. It gets no tools (with --read, the read-only ones: it can look at the code first); a tool call the model makes anyway is refused. --output saves the plan as Markdown. TASK - reads the task from stdin. The run is saved as a session (run --continue carries on from it).

Exit codes: 0 done, 1 error or stopped at --max-turns, 2 usage, 130 interrupted.`

  static examples = [
    '<%= config.bin %> plan "add a --verbose flag"',
    '<%= config.bin %> plan --read "split src/parser.ts into modules" --output PLAN.md',
    'cat issue.txt | <%= config.bin %> plan - --output-format json',
  ]

  static args = {task: Args.string({description: 'The task; - reads it from stdin.', required: true})}

  static flags = {
    ...agentFlags,
    read: Flags.boolean({description: 'Let the planner read files and search the workspace (read-only tools).'}),
    output: Flags.string({
      char: 'o',
      description: 'Save the plan to FILE as Markdown (written atomically).',
      helpValue: 'FILE',
    }),
    yes: Flags.boolean({char: 'y', description: 'Replace the --output file if it exists.'}),
  }

  async run(): Promise<void> {
    const {args, flags} = await this.parse(Plan)
    const target = flags.output && resolve(flags.output)
    if (target && existsSync(target) && !flags.yes)
      this.error(`${flags.output} exists`, {
        exit: 2,
        suggestions: ['pass --yes to replace it, or choose another --output'],
      })
    const {code, result} = await runOneStage(
      this,
      args.task,
      flags,
      async ({host, output, session, task}) => {
        const planned = await runStage(session, 'plan', task, {
          maxTurns: flags['max-turns'],
          observer: output,
          read: flags.read,
        })
        if (target && planned.stop === 'completed')
          await host.writeFileAtomic(target, `${planned.finalOutput.trim()}\n`)
        return planned
      },
      {tools: flags.read ? 'read-only' : 'none'},
    )
    if (target && result.stop === 'completed') this.logToStderr(`Plan saved to ${flags.output}`)
    if (code !== 0) this.exit(code)
  }
}
