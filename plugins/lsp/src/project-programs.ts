import {lstat, open, realpath, stat} from 'node:fs/promises'
import {basename, dirname, join} from 'node:path'

import {canonicalize, isInside} from '@hanzo-dev/sdk'

/**
 * A language server starts as soon as the agent touches a file of its language, so one the
 * project can choose is the project's own program, and runs only with `lsp.project_servers`
 * (user settings). The project chooses the server when:
 *
 * 1. it is inside the project, as found or with its symlinks resolved (`node_modules/.bin`, a
 *    relative PATH entry);
 * 2. it is a toolchain proxy, which runs the version a project file names (`path = ...` in a
 *    rust-toolchain.toml runs any program): it resolves to, or is a hard link of, a proxy
 *    program ({@link PROXIES}); it sits in a version manager's `shims` directory; or it is a
 *    script that runs a version manager ({@link MANAGERS});
 * 3. the project root holds a file version managers read ({@link TOOLCHAIN_FILES}): then any
 *    server may be steered, through its interpreter (`#!/usr/bin/env node` finds a shim) or the
 *    tools it runs (rust-analyzer runs cargo, pyright runs python).
 *
 * Only the project root counts for 3: that is where the server starts, and the proxies of 2 are
 * held back whatever directory their toolchain file is in.
 */

/** Programs that run another one, chosen by a project file, whatever name they are called by. */
const PROXIES = ['rustup', 'mise', 'rtx', 'volta-shim', 'proto-shim']
/** Version managers whose shim scripts run them (pyenv's: `exec ".../libexec/pyenv" exec ...`). */
const MANAGERS = ['rustup', 'pyenv', 'rbenv', 'nodenv', 'goenv', 'jenv', 'asdf', 'mise', 'rtx', 'volta', 'proto']
/** Files in the project root that version managers read to choose a toolchain. */
const TOOLCHAIN_FILES = [
  // rustup
  'rust-toolchain',
  'rust-toolchain.toml',
  // asdf, mise
  '.tool-versions',
  // pyenv, rbenv, nodenv, goenv, jenv, nvm and fnm; mise and asdf read them too
  '.python-version',
  '.ruby-version',
  '.node-version',
  '.nvmrc',
  '.go-version',
  '.java-version',
  // mise
  'mise.toml',
  '.mise.toml',
  'mise.local.toml',
  '.mise.local.toml',
  '.config/mise.toml',
  '.config/mise',
  '.mise',
  'mise/config.toml',
  '.rtx.toml',
  // proto
  '.prototools',
]

const SCRIPT_HEAD_BYTES = 4096
const RUNS_MANAGER = new RegExp(`(?:^|[\\s/"'=;|&(])(${MANAGERS.join('|')})(?=$|[\\s"';|&)])`)

/**
 * Why the server at `path` is the project's own program, or undefined when it is not. Made once
 * per lookup: the project root's toolchain files are looked for once.
 */
export function projectOwnership(projectRoot: string): (path: string) => Promise<string | undefined> {
  let files: Promise<string[]> | undefined
  return async (path) => {
    const [root, resolved] = await Promise.all([canonicalize(projectRoot), realpath(path)])
    // As found (node_modules/.bin may itself be a link out of the project) and where it leads.
    if ([projectRoot, root].some((r) => isInside(r, path)) || isInside(root, resolved))
      return 'it is inside the project'
    const proxy = await proxyOf(path, resolved)
    if (proxy) return proxy
    files ??= toolchainFiles(projectRoot)
    const found = await files
    if (found.length > 0)
      return `the project has ${found.join(', ')}, which version managers read to choose the programs that run`
    return undefined
  }
}

/** Which of {@link TOOLCHAIN_FILES} the project root holds. */
async function toolchainFiles(projectRoot: string): Promise<string[]> {
  const present = await Promise.all(
    TOOLCHAIN_FILES.map(async (name) => ((await mayExist(join(projectRoot, name))) ? name : undefined)),
  )
  return present.filter((name): name is string => name !== undefined)
}

/** Only a path that is surely not there is absent: one that cannot be looked at counts. */
async function mayExist(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    (error: NodeJS.ErrnoException) => error.code !== 'ENOENT' && error.code !== 'ENOTDIR',
  )
}

async function proxyOf(path: string, resolved: string): Promise<string | undefined> {
  const why = (what: string) => `it is ${what}, which runs the version a project file names`
  const named = PROXIES.find((p) => basename(resolved) === p) ?? (await hardLinkedProxy(path))
  if (named) return why(`a ${named} proxy`)
  if (basename(dirname(path)) === 'shims' || basename(dirname(resolved)) === 'shims')
    return why(`a version manager's shim (${dirname(path)})`)
  const manager = await scriptManager(resolved)
  return manager && why(`a script that runs ${manager}`)
}

/** rustup installs its proxies as hard links where it can: the same file as a proxy beside it. */
async function hardLinkedProxy(path: string): Promise<string | undefined> {
  const self = await stat(path).catch(() => undefined)
  if (!self || self.nlink < 2) return undefined
  for (const proxy of PROXIES) {
    const other = await stat(join(dirname(path), proxy)).catch(() => undefined)
    if (other && other.ino === self.ino && other.dev === self.dev) return proxy
  }

  return undefined
}

/** The version manager a script runs (its `#!` line or a command), judged from its start; comments do not count. */
async function scriptManager(path: string): Promise<string | undefined> {
  const head = await readHead(path)
  if (!head.startsWith('#!')) return undefined
  const lines = head.split('\n')
  const commands = [lines[0], ...lines.slice(1).filter((line) => !line.trimStart().startsWith('#'))]
  for (const line of commands) {
    const match = RUNS_MANAGER.exec(line)
    if (match) return match[1]
  }

  return undefined
}

async function readHead(path: string): Promise<string> {
  const file = await open(path, 'r').catch(() => undefined)
  if (!file) return ''
  try {
    const buffer = Buffer.alloc(SCRIPT_HEAD_BYTES)
    const {bytesRead} = await file.read(buffer, 0, SCRIPT_HEAD_BYTES, 0)
    return buffer.subarray(0, bytesRead).toString('latin1')
  } finally {
    await file.close()
  }
}
