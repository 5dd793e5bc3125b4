import type {AgentSessionLike, StageEvent, StageRunResult} from './agent-session.js'
import type {AgentDefinition, ToolScope} from '@hanzo-dev/sdk/agent-files'
import {type ChangeSet, workspaceChanges} from './changes.js'
import {parseReview, type Review} from './review.js'
import {AUTO_PROMPT, REVIEW_PROMPT, type Stage, STAGE_PROMPTS} from './stage-prompts.js'

/** What a caller sees of the stages as they run: the CLI's renderer, the interactive session's view. */
export interface StageObserver {
  stageStart?(stage: string, round: number, session: AgentSessionLike): void | Promise<void>
  event?(event: StageEvent, stage: string): void
  stageEnd?(stage: string, round: number, result: StageRunResult): void
}

export interface StageOptions {
  observer?: StageObserver
  maxTurns?: number
  /** `plan --read`: read-only tools instead of none. */
  read?: boolean
  /** Cancels the stage running (it ends as `cancelled`): the interactive prompt's Esc. */
  signal?: AbortSignal
}

const SCOPES: Record<Stage, ToolScope> = {code: 'all', plan: 'none', review: 'read-only', solve: 'read-only'}

/** One stage as a child of `session`: its own history and tool scope, the parent's policy, approvals, hooks and audit log. */
export function runStage(
  session: AgentSessionLike,
  stage: Stage,
  prompt: string,
  options: StageOptions & {round?: number; prefix?: string} = {},
): Promise<StageRunResult> {
  const role = stage === 'review' ? REVIEW_PROMPT : STAGE_PROMPTS[stage]
  const tools = stage === 'plan' && options.read ? 'read-only' : SCOPES[stage]
  return runChild(
    session,
    stage,
    prompt,
    {systemPrompt: options.prefix ? `${options.prefix}\n\n${role}` : role, tools},
    options,
  )
}

/** A custom agent (@hanzo-dev/sdk/agent-files) on `session`: its system prompt, tools and model. */
export function runAgent(
  session: AgentSessionLike,
  agent: AgentDefinition,
  task: string,
  options: StageOptions = {},
): Promise<StageRunResult> {
  return runChild(
    session,
    agent.name,
    task,
    {model: agent.model, systemPrompt: agent.systemPrompt, tools: agent.tools},
    options,
  )
}

async function runChild(
  session: AgentSessionLike,
  label: string,
  prompt: string,
  scope: {systemPrompt: string; tools: ToolScope; model?: string},
  options: StageOptions & {round?: number},
): Promise<StageRunResult> {
  const round = options.round ?? 1
  const child = session.child({...scope, label, maxTurns: options.maxTurns})
  try {
    await options.observer?.stageStart?.(label, round, child)
    const result = await child.run(prompt, {
      label,
      onEvent: (event) => options.observer?.event?.(event, label),
      signal: options.signal,
    })
    options.observer?.stageEnd?.(label, round, result)
    return result
  } finally {
    await child.close()
  }
}

export const runPlan = (session: AgentSessionLike, task: string, options?: StageOptions) =>
  runStage(session, 'plan', task, options)
export const runSolve = (session: AgentSessionLike, task: string, options?: StageOptions) =>
  runStage(session, 'solve', task, options)
export const runCode = (session: AgentSessionLike, task: string, options?: StageOptions) =>
  runStage(session, 'code', task, options)

export interface AutoResult {
  stages: Array<{stage: Stage; round: number; result: StageRunResult}>
  /** Code rounds run (each followed by a review). */
  rounds: number
  changes: ChangeSet
  /** The last review; absent when a stage stopped before any review. */
  review?: Review
  /** `completed` when every stage ran to the end; else the stop of the stage that ended `auto`. */
  stop: string
}

export const DEFAULT_MAX_ROUNDS = 2

/**
 * HIP-301 §13's `/auto`: plan, then code with the plan, then a review of the resulting change
 * (the working tree's diff in git, else the files the code stage wrote), and while the review
 * fails and rounds remain, code again with the review. A stage that does not complete ends it.
 */
export async function runAuto(
  session: AgentSessionLike,
  task: string,
  options: StageOptions & {maxRounds?: number} = {},
): Promise<AutoResult> {
  const maxRounds = options.maxRounds ?? DEFAULT_MAX_ROUNDS
  const stages: AutoResult['stages'] = []
  const written = new Set<string>()
  // Delegates by name: the caller's observer may be a class instance, whose methods a spread would drop.
  const outer = options.observer
  const observer: StageObserver = {
    event(event, stage) {
      noteWrite(event, written)
      outer?.event?.(event, stage)
    },
    stageEnd: (...args) => outer?.stageEnd?.(...args),
    stageStart: async (...args) => outer?.stageStart?.(...args),
  }
  const stage = async (name: Stage, prompt: string, round: number) => {
    const result = await runStage(session, name, prompt, {...options, observer, prefix: AUTO_PROMPT, round})
    stages.push({result, round, stage: name})
    return result
  }

  const done = async (stop: string, rounds: number, review?: Review): Promise<AutoResult> => ({
    changes: await workspaceChanges(session.cwd, [...written]),
    review,
    rounds,
    stages,
    stop,
  })

  const plan = await stage('plan', task, 1)
  if (plan.stop !== 'completed') return done(plan.stop, 0)
  let codePrompt = `Task:\n${task}\n\nThe plan to carry out:\n${plan.finalOutput}`
  for (let round = 1; ; round++) {
    const code = await stage('code', codePrompt, round)
    if (code.stop !== 'completed') return done(code.stop, round)
    const changes = await workspaceChanges(session.cwd, [...written])
    const reviewed = await stage('review', reviewPrompt(task, plan.finalOutput, code.finalOutput, changes), round)
    if (reviewed.stop !== 'completed') return done(reviewed.stop, round)
    const review = parseReview(reviewed.finalOutput)
    if (review.verdict !== 'fail' || round >= maxRounds) return done('completed', round, review)
    codePrompt = `Task:\n${task}\n\nThe plan:\n${plan.finalOutput}\n\nYou made a change for it, and a review found problems. Fix them.\n\nThe review:\n${reviewed.finalOutput}`
  }
}

function reviewPrompt(task: string, plan: string, summary: string, changes: ChangeSet): string {
  const change =
    changes.diff === undefined
      ? `The files changed:\n${changes.files.map((f) => `- ${f}`).join('\n') || '(none)'}`
      : `The change (git diff of the working tree):\n${changes.diff || '(no difference)'}`
  return `Review this change.\n\nTask:\n${task}\n\nPlan:\n${plan}\n\nThe coding agent's summary:\n${summary}\n\n${change}`
}

/** The files a call changed, as its tool reported them (the run's file_change items), whatever the tool. */
function noteWrite(event: StageEvent, written: Set<string>): void {
  if (event.type !== 'item_completed' || event.item.type !== 'file_change') return
  for (const {path} of event.item.files ?? []) written.add(path)
}
