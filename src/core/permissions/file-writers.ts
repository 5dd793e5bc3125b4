import type {Argv, FileWrite} from './command-wrappers.js'

/**
 * Files a command writes because its arguments name them, besides redirections: what deny rules
 * of the writing tools (`fs_write(...)`, the protected settings files) also judge, so
 * `tee .hanzo/settings.json` and `cp x.json .hanzo/settings.json` are denied like
 * `> .hanzo/settings.json`. Only the common file tools; a program that writes what it likes
 * (`python -c ...`, `git checkout -- <path>`) is for the sandbox to confine.
 *
 * Over-reading is on the safe side:
 * - every operand of `tee`, `rm`, `unlink`, `shred`, `truncate`, `touch`, and of `sed -i` and
 *   `perl -i`;
 * - `cp`, `mv`, `install`, `ln`: the destination (the last operand, or `-t`'s directory) and,
 *   as it may be a directory, each source's name inside it (`cp settings.json .hanzo`); also
 *   every source of `mv`, which takes it away, and of `ln` and `cp -l`/`-s`, which give it a
 *   second name to write it through;
 * - `dd`: its `of=`; `git`: its `--output=` (diff, log, format-patch).
 */
export function writtenFiles(program: string, args: Argv): FileWrite[] {
  if (EVERY_OPERAND.has(program)) return operands(args)
  if (IN_PLACE.has(program)) return args.words.some((word) => /^-[^-]*i|^--in-place/.test(word)) ? operands(args) : []
  if (COPIERS.has(program)) return copied(program, args)
  if (program === 'dd') return valuesOf(args, 'of=')
  if (program === 'git') return valuesOf(args, '--output=')
  return []
}

/** The values of `prefix=value` words (the prefix has no characters a shape escapes). */
function valuesOf(args: Argv, prefix: string): FileWrite[] {
  return args.words.flatMap((word, i) => (word.startsWith(prefix) ? [{shape: args.shapes[i].slice(prefix.length), target: word.slice(prefix.length)}] : []))
}

const EVERY_OPERAND = new Set(['rm', 'shred', 'tee', 'touch', 'truncate', 'unlink'])
const IN_PLACE = new Set(['perl', 'sed'])
const COPIERS = new Set(['cp', 'install', 'ln', 'mv'])

function copied(program: string, args: Argv): FileWrite[] {
  const files = operands(args)
  const option = args.words.findIndex((word) => word === '-t' || word.startsWith('--target-directory'))
  let destination: FileWrite | undefined
  if (option === -1) {
    destination = files.pop()
  } else if (args.words[option].includes('=')) {
    const afterEquals = (text: string) => text.slice(text.indexOf('=') + 1)
    destination = {shape: afterEquals(args.shapes[option]), target: afterEquals(args.words[option])}
  } else if (option + 1 < args.words.length) {
    destination = {shape: args.shapes[option + 1], target: args.words[option + 1]}
    const at = files.findIndex((file) => file.target === destination!.target)
    if (at !== -1) files.splice(at, 1)
  }

  if (destination === undefined) return []
  const inside = files.map((file) => ({shape: `${destination.shape}/${basename(file.shape)}`, target: `${destination.target}/${basename(file.target)}`}))
  const linksSources = program === 'ln' || (program === 'cp' && args.words.some((word) => /^-[^-]*[ls]|^--(?:link|symbolic-link)$/.test(word)))
  return [destination, ...inside, ...(program === 'mv' || linksSources ? files : [])]
}

function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed.slice(trimmed.lastIndexOf('/') + 1)
}

/** The operands of a command that writes the files it names: every word that is not an option. */
export function operands(args: Argv): FileWrite[] {
  const end = args.words.indexOf('--')
  return args.words.flatMap((word, i) => ((end !== -1 && i > end) || (!word.startsWith('-') && i !== end) ? [{shape: args.shapes[i], target: word}] : []))
}
