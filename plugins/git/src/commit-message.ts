import type {AgentSession} from '@hanzo-dev/sdk'

import {GitError} from './git-cli.js'

/** The role the message session is given (put before hanzo-dev's own system prompt). */
export const COMMIT_MESSAGE_PROMPT = `You write git commit messages in the Conventional Commits style.
Answer with the commit message only: no preamble, no code fence, no quotes.
The first line is \`type(scope): subject\`, at most 72 characters: type is one of feat, fix, docs, style, refactor, perf, test, build, ci, chore, revert; the scope is optional and names the area changed; the subject is in the imperative mood, lower case, with no full stop.
When the change needs explaining, add a blank line and a body wrapped at 72 characters saying what changed and why, not how. Never invent what the diff does not show.`

export const SUBJECT_LIMIT = 72

/** The reply as a commit message: a stray code fence, a `Commit message:` lead-in and surrounding blank lines taken off. */
export function cleanMessage(reply: string): string {
  let text = reply.replaceAll('\r\n', '\n').trim()
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text)
  if (fenced) text = fenced[1].trim()
  text = text.replace(/^(commit message|message):\s*\n?/i, '').trim()
  if (/^(["'`])[^\n]*\1$/.test(text)) text = text.slice(1, -1).trim()
  return text.replaceAll(/[ \t]+$/gm, '').replaceAll(/\n{3,}/g, '\n\n')
}

export function subjectOf(message: string): string {
  return message.split('\n', 1)[0]
}

/**
 * One model reply on a message-only session, as text. A failed call, a reply cut at the output
 * limit or an empty one is a GitError saying why (the caller puts the index back).
 */
export async function askModel(session: AgentSession, prompt: string, what: string): Promise<string> {
  let result
  try {
    result = await session.run(prompt)
  } catch (error) {
    const {hint, message} = error as Error & {hint?: string}
    throw new GitError(`The model could not write the ${what}: ${message}`, {hint})
  }

  if (result.stop === 'cancelled') throw new GitError('Cancelled', {exitCode: 130})
  if (result.stop !== 'completed')
    throw new GitError(`The model could not write the ${what}: the reply stopped early (${result.stop})`, {
      hint: 'try again, or pass the text yourself',
    })
  const text = cleanMessage(result.finalOutput)
  if (!text)
    throw new GitError(`The model could not write the ${what}: the reply was empty`, {
      hint: 'try again, or pass the text yourself',
    })
  return text
}

export function commitMessagePrompt(change: string, options: {amending?: string} = {}): string {
  const amend = options.amending
    ? `\n\nThis amends the last commit, whose message was:\n${options.amending}\nDescribe the whole amended commit.`
    : ''
  return `Write the commit message for this staged change.${amend}\n\n${change}`
}

export const REGENERATE_PROMPT =
  'Write a different commit message for the same change, following the same rules. Answer with the message only.'
