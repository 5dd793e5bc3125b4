/**
 * Tool output is cut once, centrally, for every tool: a model reading 5 MB of a log learns
 * nothing more than from its head and tail, and pays for every token. The cut keeps both ends
 * (errors are usually at the end, context at the start) and says what was left out, so the
 * model can ask for the middle (fs_read with an offset, grep).
 */
/** About 25k tokens; fs_read's own page (96 KB) fits, so a whole page is never cut. */
export const DEFAULT_MAX_OUTPUT_CHARS = 100_000

export function truncateOutput(text: string, maxChars: number = DEFAULT_MAX_OUTPUT_CHARS): string {
  if (text.length <= maxChars) return text
  const head = text.slice(0, Math.ceil(maxChars * 0.6))
  const tail = text.slice(text.length - Math.floor(maxChars * 0.4))
  const cutLines = countLines(text, head.length, text.length - tail.length)
  return `${head}\n\n[... ${text.length - head.length - tail.length} characters (${cutLines} lines) cut from the middle of this output ...]\n\n${tail}`
}

function countLines(text: string, from: number, to: number): number {
  let lines = 0
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) lines++
  return lines
}
