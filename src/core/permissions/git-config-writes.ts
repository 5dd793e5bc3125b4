import type {Argv, FileWrite} from './unwrapped.js'

/**
 * Which git config files a git command writes, as file writes the protected rules judge
 * (protected-paths.ts): `git config core.hooksPath .githooks` writes `.git/config` as surely as
 * `> .git/config` does, and the user's next `git commit` runs what it names. Over-reading is on
 * the safe side: a `git config` that is not plainly a read is a write of the file its scope
 * names (`--file`, `--global`, `--system`, `--worktree`, the repository's by default, found
 * through `-C` and `--git-dir`).
 *
 * `git -c` and `--config-env` with a key that names a program git runs, or a file git reads
 * config from, count as a write of the repository's config too: for that command they are its
 * config, and no rule or mode lets a command set them.
 */
export function gitConfigWrites(args: Argv, at: number): FileWrite[] {
  const repository = repositoryConfig(args, at)
  const writes = overrides(args, at).map((key) => ({
    shape: repository.shape,
    target: `${repository.target} (git -c ${key} names what git runs)`,
  }))
  if (args.words[at] === 'config') writes.push(...configFileWrites(args, at + 1, repository))
  return writes
}

/**
 * Config keys whose value is a program git runs or a config file git reads. Matched in lower
 * case: git's section and variable names ignore case (`core.hooksPath` is `CORE.HOOKSPATH`).
 */
const RUNNING_KEYS = [
  /^core\.(?:hookspath|fsmonitor|sshcommand|askpass|gitproxy)$/,
  /^(?:include\.path|includeif\..+\.path)$/,
  /^diff\.(?:external|.+\.(?:textconv|command))$/,
  /^(?:filter|merge)\..+\.(?:clean|smudge|process|driver)$/,
  /^(?:credential(?:\..+)?\.helper|gpg(?:\..+)?\.program|uploadpack\.packobjectshook)$/,
]

function overrides(args: Argv, at: number): string[] {
  const keys: string[] = []
  for (let i = 0; i < at; i++) {
    const word = args.words[i]
    let setting: string | undefined
    if (word === '-c' || word === '--config-env') setting = args.words[++i]
    else if (word.startsWith('--config-env=')) setting = word.slice('--config-env='.length)
    const key = setting?.split('=')[0]
    if (key && RUNNING_KEYS.some((pattern) => pattern.test(key.toLowerCase()))) keys.push(key)
  }

  return keys
}

/** The repository's config as git's global options place it: `-C dir`, `--git-dir=dir`; `.git/config` here by default. */
function repositoryConfig(args: Argv, at: number): FileWrite {
  let base: FileWrite | undefined
  let gitDir: FileWrite | undefined
  for (let i = 0; i < at; i++) {
    const option = optionValue(args, i)
    i = option.next
    if (option.name === '-C') base = joinPath(base, option.value ?? UNKNOWN)
    else if (option.name === '--git-dir') gitDir = option.value ?? UNKNOWN
  }

  const dir = gitDir
    ? gitDir.target.startsWith('/')
      ? gitDir
      : joinPath(base, gitDir)
    : joinPath(base, {shape: '.git', target: '.git'})
  return joinPath(dir, {shape: 'config', target: 'config'})
}

/** The options of `git config` that only read, in either syntax (`git config --get k`, `git config get k`). */
const READS = new Set([
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--get-color',
  '--get-colorbool',
  '--list',
  '-l',
  '--blob',
  'get',
  'list',
])
/** Options that change nothing about whether it writes (the scope options are read on their own). */
const HARMLESS = new Set([
  '--bool',
  '--int',
  '--bool-or-int',
  '--path',
  '--expiry-date',
  '--null',
  '-z',
  '--name-only',
  '--show-origin',
  '--show-scope',
  '--includes',
  '--no-includes',
  '--local',
])
/** Subcommands of the new syntax that write (`git config set k v`). */
const WRITING_SUBCOMMANDS = new Set(['set', 'unset', 'rename-section', 'remove-section', 'edit'])

/**
 * The file `git config ...` (its words from `from`) writes: none when it plainly reads (a read
 * option, or the old syntax's single key with nothing that edits), else the one its scope names.
 */
function configFileWrites(args: Argv, from: number, repository: FileWrite): FileWrite[] {
  let file = repository
  const positional: string[] = []
  let editing = false
  for (let i = from; i < args.words.length; i++) {
    const option = optionValue(args, i)
    i = option.next
    if (READS.has(option.name)) return []
    if (option.name === '--file' || option.name === '-f') file = option.value ?? UNKNOWN
    else if (option.name === '--global') file = {shape: '*/.gitconfig', target: '~/.gitconfig'}
    else if (option.name === '--system') file = {shape: '/etc/gitconfig', target: '/etc/gitconfig'}
    else if (option.name === '--worktree')
      file = {shape: `${repository.shape}.worktree`, target: `${repository.target}.worktree`}
    else if (option.name.startsWith('-')) editing ||= !HARMLESS.has(option.name) && !VALUE_OPTIONS.has(option.name)
    else positional.push(option.name)
  }

  const reads = !editing && positional.length === 1 && !WRITING_SUBCOMMANDS.has(positional[0])
  return reads ? [] : [file]
}

/** Options of git and of `git config` whose value is the next word when not joined with `=`. */
const VALUE_OPTIONS = new Set([
  '-C',
  '-c',
  '--config-env',
  '--git-dir',
  '--work-tree',
  '--namespace',
  '--super-prefix',
  '--file',
  '-f',
  '--blob',
  '--type',
  '--default',
  '--comment',
  '--value',
])
const UNKNOWN: FileWrite = {shape: '*', target: '(a path only known when it runs)'}

/** The option at `at` with its value (joined with `=` or the next word), and where the next option is. */
function optionValue(args: Argv, at: number): {name: string; value?: FileWrite; next: number} {
  const word = args.words[at]
  const equals = word.startsWith('--') ? word.indexOf('=') : -1
  if (equals !== -1) {
    const name = word.slice(0, equals)
    const shapeEquals = args.shapes[at].indexOf('=')
    return {name, next: at, value: {shape: args.shapes[at].slice(shapeEquals + 1), target: word.slice(equals + 1)}}
  }

  if (!VALUE_OPTIONS.has(word) || at + 1 >= args.words.length) return {name: word, next: at}
  return {name: word, next: at + 1, value: {shape: args.shapes[at + 1], target: args.words[at + 1]}}
}

function joinPath(base: FileWrite | undefined, path: FileWrite): FileWrite {
  if (!base || path.target.startsWith('/')) return path
  const trim = (text: string) => text.replace(/\/+$/, '')
  return {shape: `${trim(base.shape)}/${path.shape}`, target: `${trim(base.target)}/${path.target}`}
}
