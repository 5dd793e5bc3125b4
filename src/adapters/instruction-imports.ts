/**
 * The `@path` imports of an instruction file, as Claude Code reads them in CLAUDE.md: an `@`
 * at the start of a word followed by a path (`@docs/style.md`, `@./notes.md`, `@../shared/x.md`).
 * Code is quoted text, not instructions: nothing inside a fenced block or an inline code span
 * imports, so a file can show the syntax. An e-mail address (`a@b.c`) has no `@` at the start
 * of a word and is not an import; a word with neither `/` nor `.` (`@team`) is a mention.
 */
const IMPORT = /(?<=^|\s)@([^\s`'"<>()[\]{}]+)/g
/** Sentence punctuation after a path is not part of it: `see @docs/a.md.` */
const TRAILING = /[.,;:!?]+$/

export function importedPaths(text: string): string[] {
  const paths: string[] = []
  let fenced = false
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced
      continue
    }

    if (fenced) continue
    for (const match of line.replaceAll(/`[^`]*`/g, ' ').matchAll(IMPORT)) {
      const path = match[1].replace(TRAILING, '')
      if (/[./]/.test(path) && !paths.includes(path)) paths.push(path)
    }
  }

  return paths
}
