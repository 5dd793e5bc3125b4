/**
 * getopt-style reading of a command's leading options, for commands that run another command
 * after them (command-wrappers.ts): where the options end is where that command starts, so an
 * option that takes a value must not be mistaken for the command (`timeout -s KILL 5 rm`), and
 * an option it does not know makes the start unknown rather than guessed.
 */

export interface OptionSpec {
  /** Single-letter options without a value. */
  short?: string
  /** Single-letter options with a value, joined (`-n5`) or the next word (`-n 5`). */
  shortValue?: string
  /** Single-letter options whose value, if any, is joined (`xargs -i{}`). */
  shortOptional?: string
  /** Long options without a value (a joined `--name=value` is still read). */
  long?: readonly string[]
  /** Long options with a value, joined (`--name=value`) or the next word. */
  longValue?: readonly string[]
  /** `-10` is an option (nice). */
  numeric?: boolean
  /** Words after the options that belong to the command itself (timeout's duration). */
  operands?: number
  /** Options may follow operands, as GNU getopt lets them (`su root -c cmd`, `script log -c cmd`). */
  permute?: boolean
}

export interface ReadOptions {
  /** The index of the first word after the options and operands. */
  rest: number
  /** The options seen: by letter or long name, with the value or `true`. */
  seen: Map<string, string | true>
  /** For an option with a value, the index of the word that holds it (its shape says whether it is literal). */
  at: Map<string, number>
  /** An option the spec does not know: where the options end cannot be told. */
  unknown: boolean
  /** With `permute`: the indexes of the words that are not options (all of them after `--`). */
  operands: number[]
}

export function readOptions(words: readonly string[], spec: OptionSpec): ReadOptions {
  const seen = new Map<string, string | true>()
  const at = new Map<string, number>()
  const operands: number[] = []
  let i = 0
  while (i < words.length) {
    const word = words[i]
    if (word === '--') {
      i++
      break
    }

    if (word.startsWith('--')) {
      const equals = word.indexOf('=')
      const name = longName(word.slice(2, equals === -1 ? undefined : equals), spec)
      if (name === undefined) return {at, operands, rest: i, seen, unknown: true}
      const takesNext = equals === -1 && spec.longValue?.includes(name)
      seen.set(name, equals === -1 ? (takesNext ? (words[i + 1] ?? '') : true) : word.slice(equals + 1))
      if (takesNext || equals !== -1) at.set(name, takesNext ? i + 1 : i)
      i += takesNext ? 2 : 1
      continue
    }

    if (word.length < 2 || word[0] !== '-') {
      if (!spec.permute) break
      operands.push(i++)
      continue
    }

    if (spec.numeric && /^-\d+$/.test(word)) {
      i++
      continue
    }

    const step = readCluster(words, i, spec, seen, at)
    if (step === 0) return {at, operands, rest: i, seen, unknown: true}
    i += step
  }

  if (spec.permute) for (; i < words.length; i++) operands.push(i)
  return {at, operands, rest: Math.min(words.length, i + (spec.operands ?? 0)), seen, unknown: false}
}

/** Reads `-abc` at `from`; how many words it took, 0 for a letter the spec does not know. */
function readCluster(
  words: readonly string[],
  from: number,
  spec: OptionSpec,
  seen: Map<string, string | true>,
  at: Map<string, number>,
): number {
  const word = words[from]
  for (let j = 1; j < word.length; j++) {
    const letter = word[j]
    const joined = word.slice(j + 1)
    if (spec.shortValue?.includes(letter)) {
      seen.set(letter, joined || (words[from + 1] ?? ''))
      at.set(letter, joined ? from : from + 1)
      return joined ? 1 : 2
    }

    if (spec.shortOptional?.includes(letter)) {
      seen.set(letter, joined || true)
      if (joined) at.set(letter, from)
      return 1
    }

    if (!spec.short?.includes(letter)) return 0
    seen.set(letter, true)
  }

  return 1
}

/** The exact name, or the only one it abbreviates (GNU getopt accepts `--sig` for `--signal`). */
function longName(given: string, spec: OptionSpec): string | undefined {
  const names = [...(spec.long ?? []), ...(spec.longValue ?? [])]
  if (names.includes(given)) return given
  const candidates = names.filter((name) => given !== '' && name.startsWith(given))
  return candidates.length === 1 ? candidates[0] : undefined
}
