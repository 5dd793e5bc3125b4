/**
 * The reviewer's verdict, read from the end of its answer:
 *
 *     VERDICT: pass
 *
 *     VERDICT: fail
 *     - what is wrong, and where
 *
 * The last `VERDICT:` line counts (the model may quote the format earlier); the problems are the
 * `- ` / `* ` lines after it. An answer without a verdict is `unclear`: `auto` cannot tell
 * whether to fix something, so it stops and says so rather than guess either way.
 */
export type ReviewVerdict = 'pass' | 'fail' | 'unclear'

export interface Review {
  verdict: ReviewVerdict
  problems: string[]
}

const VERDICT_LINE = /^\s*(?:\*\*)?verdict(?:\*\*)?\s*:\s*(?:\*\*)?\s*([a-z]+)\s*(?:\*\*)?\s*$/i

export function parseReview(answer: string): Review {
  const lines = answer.split(/\r?\n/)
  const at = lines.findLastIndex((line) => VERDICT_LINE.test(line))
  if (at === -1) return {problems: [], verdict: 'unclear'}
  const word = VERDICT_LINE.exec(lines[at])![1].toLowerCase()
  const verdict: ReviewVerdict = word === 'pass' ? 'pass' : word === 'fail' ? 'fail' : 'unclear'
  const problems = lines
    .slice(at + 1)
    .map((line) => /^\s*[-*]\s+(.+?)\s*$/.exec(line)?.[1])
    .filter((problem): problem is string => problem !== undefined)
  // A fail that names nothing is still a fail: the whole answer goes to the next code round.
  return {problems: verdict === 'fail' ? problems : [], verdict}
}
