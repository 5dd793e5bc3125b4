import type {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {GitError} from './git-cli.js'
import type {ModelChoice} from './model-session.js'
import {openRepository, type Repository} from './repository.js'

/** The model flags of `run`, for the commands that have the model write a message. */
export const modelFlags = {
  model: Flags.string({description: 'Model id for the message (default: the `model` setting).'}),
  'base-url': Flags.string({description: 'An OpenAI-compatible /v1 base URL (Ollama, vLLM, LM Studio, ...).'}),
  'fake-model': Flags.string({description: 'Replay a scripted model (tests, demos).', hidden: true}),
}

export function modelChoice(flags: {model?: string; 'base-url'?: string; 'fake-model'?: string}): ModelChoice {
  return {baseURL: flags['base-url'], fakeModel: flags['fake-model'], model: flags.model}
}

/** Whether the user can be asked: both ends of the conversation are a terminal. */
export function interactive(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY)
}

/**
 * A git command's body on the repository around the working directory; a GitError (outside a
 * repository, git refusing, the model failing) becomes the command's one-line error and exit code.
 */
export async function inRepository<T>(command: Command, work: (repo: Repository) => Promise<T>): Promise<T> {
  try {
    return await work(await openRepository({cwd: process.cwd(), env: process.env}))
  } catch (error) {
    if (error instanceof GitError)
      command.error(error.message, {exit: error.exitCode, suggestions: error.hint ? [error.hint] : undefined})
    throw error
  }
}
