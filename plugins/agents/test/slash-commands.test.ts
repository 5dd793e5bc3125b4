import type {AgentSession, ChildSessionOptions, SlashCommandContext} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {agentSlashCommands} from '../src/slash-commands.js'
import {STAGE_PROMPTS} from '../src/stage-prompts.js'

/** A session whose children answer `reply` and remember how they were made. */
function fakeSession(reply: string) {
  const children: ChildSessionOptions[] = []
  const session = {
    child(options: ChildSessionOptions) {
      children.push(options)
      return {
        close: async () => {},
        run: async () => ({
          finalOutput: reply,
          history: [],
          rawResponses: [],
          stop: 'completed',
          turns: 1,
          usage: {inputTokens: 1, outputTokens: 1},
          usageReport: {} as never,
        }),
      }
    },
    cwd: '/work',
  } as unknown as AgentSession
  return {children, session}
}

const run = (name: string, args: string, session?: AgentSession) => {
  const command = agentSlashCommands().find((c) => c.name === name)!
  const context: SlashCommandContext = {
    args,
    argv: args ? args.split(' ') : [],
    cwd: '/work',
    session,
    signal: new AbortController().signal,
  }
  return command.run(context)
}

describe('the agent slash commands', () => {
  it('/plan runs the plan stage (no tools) on a child of the chat session: the answer is shown and goes to the next turn', async () => {
    const {children, session} = fakeSession('1. add the cache')
    expect(await run('plan', 'add a cache', session)).toEqual({
      context: "The plan stage's answer (from /plan):\n1. add the cache",
      message: '1. add the cache',
    })
    expect(children).toMatchObject([{label: 'plan', systemPrompt: STAGE_PROMPTS.plan, tools: 'none'}])
  })

  it('/solve is read-only; /code is the next turn of the chat with the code stage role', async () => {
    const {children, session} = fakeSession('the answer')
    await run('solve', 'why is it slow', session)
    expect(children).toMatchObject([{label: 'solve', tools: 'read-only'}])
    expect(await run('code', 'add a flag', session)).toEqual({prompt: `${STAGE_PROMPTS.code}\n\nTask:\nadd a flag`})
  })

  it('asks for the task', async () => {
    expect(() => run('auto', '')).toThrow('Usage: /auto TASK')
  })
})
