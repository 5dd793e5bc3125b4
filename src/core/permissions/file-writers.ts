import {gitSubcommand} from './git-options.js'
import type {Argv, FileWrite} from './unwrapped.js'
import {hasLiteral} from './word-shape.js'

/**
 * Files a command writes because its arguments name them, besides redirections: what deny rules
 * of the writing tools (`fs_write(...)`, the protected settings files) also judge, so
 * `tee .hanzo/settings.json` and `cp x.json .hanzo/settings.json` are denied like
 * `> .hanzo/settings.json`. Only the common file tools; a program that writes what it likes
 * (`python -c ...`, `tar -x`, `git pull`) is for the sandbox to confine.
 *
 * Over-reading is on the safe side:
 * - every operand of `tee`, `rm`, `unlink`, `shred`, `truncate`, `touch`, and of `sed -i` and
 *   `perl -i`;
 * - `cp`, `mv`, `install`, `ln`: the destination (the last operand, or `-t`'s directory) and,
 *   as it may be a directory, each source's name inside it (`cp settings.json .hanzo`); also
 *   every source of `mv`, which takes it away, and of `ln` and `cp -l`/`-s`, which give it a
 *   second name to write it through;
 *   a recursive `cp` of a directory's contents (`cp -r dir/. .`, `cp -rT dir .`) anything in
 *   the destination (`./*`);
 * - `dd`: its `of=`; `sort`: its `-o`/`--output`;
 * - `git`: its `--output=` (diff, log, format-patch), and the pathspecs of `git checkout` and
 *   `git restore` (every word that is not an option: a branch name is read as a path too), with
 *   git's own wildcards and magic (`'*.json'`, `:/x`) as wildcards, and `.` as everything in it.
 */
export function writtenFiles(program: string, args: Argv): FileWrite[] {
  if (EVERY_OPERAND.has(program)) return operands(args)
  if (IN_PLACE.has(program)) return args.words.some((word) => /^-[^-]*i|^--in-place/.test(word)) ? operands(args) : []
  if (COPIERS.has(program)) return copied(program, args)
  if (program === 'dd') return valuesOf(args, 'of=')
  if (program === 'sort') return sortOutput(args)
  if (program === 'git') return [...valuesOf(args, '--output='), ...checkedOut(args)]
  return []
}

/** The values of `prefix=value` words (the prefix has no characters a shape escapes). */
function valuesOf(args: Argv, prefix: string): FileWrite[] {
  return args.words.flatMap((word, i) =>
    word.startsWith(prefix) ? [{shape: args.shapes[i].slice(prefix.length), target: word.slice(prefix.length)}] : [],
  )
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
  const inside = files.map((file) => ({
    shape: `${destination.shape}/${basename(file.shape)}`,
    target: `${destination.target}/${basename(file.target)}`,
  }))
  const linksSources =
    program === 'ln' ||
    (program === 'cp' && args.words.some((word) => /^-[^-]*[ls]|^--(?:link|symbolic-link)$/.test(word)))
  const recursive = program === 'cp' && args.words.some((word) => /^-[^-]*[aRr]|^--(?:archive|recursive)$/.test(word))
  const contents =
    recursive &&
    (files.some((file) => /(?:^|\/)\.\/*$/.test(file.target)) ||
      args.words.some((word) => /^-[^-]*T|^--no-target-directory$/.test(word)))
  return [
    destination,
    ...inside,
    ...(contents ? [everythingIn(destination)] : []),
    ...(program === 'mv' || linksSources ? files : []),
  ]
}

function everythingIn(directory: FileWrite): FileWrite {
  return {shape: `${directory.shape}/*`, target: `${directory.target}/*`}
}

/** `sort -o FILE` (also `-oFILE`, after other letters, `--output[=]FILE` and its abbreviations); the letters `kStT` take a value of their own. */
function sortOutput(args: Argv): FileWrite[] {
  const files: FileWrite[] = []
  const end = args.words.includes('--') ? args.words.indexOf('--') : args.words.length
  for (let i = 0; i < end; i++) {
    const word = args.words[i]
    const long = /^--o(?:u(?:t(?:p(?:ut?)?)?)?)?(=|$)/.exec(word)
    const short = long
      ? -1
      : /^-[^-]/.test(word)
        ? [...word].findIndex((letter, j) => j > 0 && 'kStTo'.includes(letter))
        : -1
    if (!long && (short === -1 || word[short] !== 'o')) continue
    const skip = long ? long[0].length : short + 1
    if (skip < word.length) files.push({shape: args.shapes[i].slice(skip), target: word.slice(skip)})
    else if (i + 1 < args.words.length) files.push({shape: args.shapes[i + 1], target: args.words[++i]})
  }

  return files
}

/** The pathspecs `git checkout` and `git restore` write. */
function checkedOut(args: Argv): FileWrite[] {
  const at = gitSubcommand(args.words)
  if (args.words[at] !== 'checkout' && args.words[at] !== 'restore') return []
  const rest = {shapes: args.shapes.slice(at + 1), words: args.words.slice(at + 1)}
  return operands(rest).flatMap(({shape, target}) => {
    const path = {shape: pathspecShape(shape), target}
    return /^(?:\.\/*)+$/.test(target) ? [path, everythingIn(path)] : [path]
  })
}

/** Git matches a pathspec's `*`, `?` and `[...]` itself, and `:(magic)` or `:/` changes where it starts. */
function pathspecShape(shape: string): string {
  const globbed = shape
    .replace(/^:(?:\([^)]*\)|[!/^]*)/, '*')
    .replaceAll(/\[[^\]]*]/g, '?')
    .replaceAll(/\\([*?])/g, '$1')
  return hasLiteral(globbed) ? globbed : './*'
}

function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '')
  return trimmed.slice(trimmed.lastIndexOf('/') + 1)
}

/** The operands of a command that writes the files it names: every word that is not an option. */
export function operands(args: Argv): FileWrite[] {
  const end = args.words.indexOf('--')
  return args.words.flatMap((word, i) =>
    (end !== -1 && i > end) || (!word.startsWith('-') && i !== end) ? [{shape: args.shapes[i], target: word}] : [],
  )
}
