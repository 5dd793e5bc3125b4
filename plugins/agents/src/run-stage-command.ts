import type {Command} from '@oclif/core/command'

import {type AgentFlags, exitCode, openAgent, type OpenedAgent} from './agent-command.js'
import type {StageRunResult} from './agent-session.js'
import {runStage, type StageOptions} from './stages.js'
import type {Stage} from './stage-prompts.js'

/** `plan`, `solve`, `code` and a custom agent: one stage on one session; resolves to the stage's result. */
export async function runOneStage(
  command: Command,
  task: string,
  flags: AgentFlags,
  run: (opened: OpenedAgent) => Promise<StageRunResult>,
  open: Parameters<typeof openAgent>[3],
): Promise<{result: StageRunResult; code: number}> {
  const opened = await openAgent(command, task, flags, open)
  try {
    const result = await run(opened)
    return {code: exitCode(result.stop), result}
  } catch (error) {
    opened.output.fail(error instanceof Error ? error.message : String(error))
    throw error
  } finally {
    await opened.session.close()
  }
}

/** A built-in stage's command body. */
export function builtinStage(stage: Stage, extra: Omit<StageOptions, 'observer'> = {}) {
  return (opened: OpenedAgent) => runStage(opened.session, stage, opened.task, {...extra, observer: opened.output})
}
