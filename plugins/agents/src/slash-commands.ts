import type {SlashCommandContext, SlashCommandDefinition, SlashCommandResult} from '@hanzo-dev/sdk'

import type {StageRunResult} from './agent-session.js'
import {autoText} from './stage-output.js'
import {STAGE_PROMPTS} from './stage-prompts.js'
import {runAuto, runPlan, runSolve} from './stages.js'

/**
 * The agent stages at the interactive prompt (HIP-301 §13). `/plan`, `/solve` and `/auto` run
 * the stages of `hanzo-dev plan|solve|auto` as children of the chat's session (its policy,
 * approvals and hooks) and show the answer; the answer also goes to the next turn as context, so
 * "do step 2" follows on. `/code` is the chat's own next turn with the code stage's role: the
 * conversation and every tool are already there, and its edits stream and ask as any turn's.
 */
export function agentSlashCommands(): SlashCommandDefinition[] {
  return [
    stage('plan', 'Plan a task step by step (no tools, nothing changed)', async (context, task) =>
      answer('plan', await runPlan(sessionOf(context), task, {signal: context.signal})),
    ),
    stage('solve', 'Reason through a problem with read-only tools (nothing changed)', async (context, task) =>
      answer('solve', await runSolve(sessionOf(context), task, {signal: context.signal})),
    ),
    stage('code', 'Implement a task in this conversation, as the code stage', (_context, task) => ({
      prompt: `${STAGE_PROMPTS.code}\n\nTask:\n${task}`,
    })),
    stage('auto', 'Plan, code and review a task end to end (edits ask as usual)', async (context, task) => {
      const auto = await runAuto(sessionOf(context), task, {signal: context.signal})
      const text = autoText(auto)
      return {context: `The user ran /auto for: ${task}\n\n${text}`, message: text.trimEnd()}
    }),
  ]
}

function stage(
  name: string,
  description: string,
  work: (context: SlashCommandContext, task: string) => Promise<SlashCommandResult> | SlashCommandResult,
): SlashCommandDefinition {
  return {
    argsHint: 'TASK',
    description,
    name,
    run(context) {
      if (!context.args) throw new Error(`Usage: /${name} TASK`)
      return work(context, context.args)
    },
  }
}

function sessionOf(context: SlashCommandContext) {
  if (!context.session) throw new Error('This command needs the agent session of the interactive prompt')
  return context.session
}

function answer(name: string, result: StageRunResult): SlashCommandResult {
  if (result.stop !== 'completed')
    return {message: `/${name} stopped early (${result.stop}):\n${result.finalOutput}`.trimEnd()}
  return {context: `The ${name} stage's answer (from /${name}):\n${result.finalOutput}`, message: result.finalOutput}
}
