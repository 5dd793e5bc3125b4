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
}

export interface ReadOptions {
  /** The index of the first word after the options and operands. */
  rest: number
  /** The options seen: by letter or long name, with the value or `true`. */
  seen: Map<string, string | true>
  /** An option the spec does not know: where the options end cannot be told. */
  unknown: boolean
}

export function readOptions(words: readonly string[], spec: OptionSpec): ReadOptions {
  const seen = new Map<string, string | true>()
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
      if (name === undefined) return {rest: i, seen, unknown: true}
      const takesNext = equals === -1 && spec.longValue?.includes(name)
      seen.set(name, equals === -1 ? (takesNext ? (words[i + 1] ?? '') : true) : word.slice(equals + 1))
      i += takesNext ? 2 : 1
      continue
    }

    if (word.length < 2 || word[0] !== '-') break
    if (spec.numeric && /^-\d+$/.test(word)) {
      i++
      continue
    }

    const step = readCluster(words, i, spec, seen)
    if (step === 0) return {rest: i, seen, unknown: true}
    i += step
  }

  return {rest: Math.min(words.length, i + (spec.operands ?? 0)), seen, unknown: false}
}

/** Reads `-abc` at `at`; how many words it took, 0 for a letter the spec does not know. */
function readCluster(words: readonly string[], at: number, spec: OptionSpec, seen: Map<string, string | true>): number {
  const word = words[at]
  for (let j = 1; j < word.length; j++) {
    const letter = word[j]
    const joined = word.slice(j + 1)
    if (spec.shortValue?.includes(letter)) {
      seen.set(letter, joined || (words[at + 1] ?? ''))
      return joined ? 1 : 2
    }

    if (spec.shortOptional?.includes(letter)) {
      seen.set(letter, joined || true)
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
