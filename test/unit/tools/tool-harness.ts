import {createServer, type RequestListener, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {delimiter, dirname, join} from 'node:path'

import type {ToolContext, ToolDefinition, ToolResult} from '@hanzo-dev/sdk'
import {afterEach, beforeEach} from 'vitest'

/**
 * A fresh temp directory for each test, split in two: `workspace` (the tools' cwd) and `outside`
 * (a sibling the tools must not reach). Both canonical, so expected paths compare equal.
 */
export function useTempWorkspace() {
  const state = {base: '', outside: '', workspace: ''}
  beforeEach(() => {
    state.base = realpathSync(mkdtempSync(join(tmpdir(), 'hanzo-tools-')))
    state.workspace = join(state.base, 'ws')
    state.outside = join(state.base, 'outside')
    mkdirSync(state.workspace)
    mkdirSync(state.outside)
  })
  afterEach(() => rmSync(state.base, {force: true, recursive: true}))
  return state
}

/**
 * The two engines fs_grep and fs_glob search with, for `describe.each`: ripgrep (on PATH here; CI
 * installs it) and the built-in walk (PATH without it). Both get the same fixtures and expectations.
 */
export const SEARCH_ENGINES: Array<[name: string, path: string]> = [
  ['with ripgrep', process.env.PATH ?? ''],
  [
    'built in',
    (process.env.PATH ?? '')
      .split(delimiter)
      .filter((dir) => !existsSync(join(dir, 'rg')))
      .join(delimiter),
  ],
]

/** PATH set to `path` for each test of the suite, and put back after. */
export function usePath(path: string): void {
  const saved = process.env.PATH
  beforeEach(() => {
    process.env.PATH = path
  })
  afterEach(() => {
    process.env.PATH = saved
  })
}

export function toolContext(cwd: string, signal: AbortSignal = new AbortController().signal): ToolContext {
  return {cwd, sessionId: 'test-session', signal}
}

/** Runs `tool` as the executor would, after schema validation. */
export function run<I>(tool: ToolDefinition<I>, input: I, cwd: string, signal?: AbortSignal): Promise<ToolResult> {
  return tool.execute(input, toolContext(cwd, signal))
}

/** `serve(handler)`: an HTTP server on 127.0.0.1 for the test, closed after it; answers its base URL. */
export function useLocalServer(): (handler: RequestListener) => Promise<string> {
  let server: Server | undefined
  afterEach(async () => {
    const open = server
    server = undefined
    if (open) await new Promise<void>((resolve) => open.close(() => resolve()))
  })
  return async (handler) => {
    const started = createServer(handler)
    server = started
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve))
    return `http://127.0.0.1:${(started.address() as AddressInfo).port}`
  }
}

export {isAlive, waitUntil} from '../../helpers/processes.js'

/** Writes each `path: content` under `root`, creating directories. */
export function writeTree(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), {recursive: true})
    writeFileSync(join(root, path), content)
  }
}

/**
 * A tree with a root and a nested `.gitignore` (anchored patterns, directory patterns and
 * negations), for the tools that walk; every file but the `.gitignore`s holds `needle`.
 */
export const IGNORE_TREE: Record<string, string> = {
  '.git/config': 'needle',
  '.gitignore': '*.log\nbuild/\n/top-only.txt\n!keep.log\n',
  'app.log': 'needle',
  'keep.log': 'needle',
  'build/out.js': 'needle',
  'top-only.txt': 'needle',
  'src/top-only.txt': 'needle',
  'src/main.ts': 'needle',
  'pkg/.gitignore': 'generated/\n*.tmp\n!important.log\n/local.txt\n',
  'pkg/generated/x.ts': 'needle',
  'pkg/a.tmp': 'needle',
  'pkg/deep/b.tmp': 'needle',
  'pkg/important.log': 'needle',
  'pkg/other.log': 'needle',
  'pkg/local.txt': 'needle',
  'pkg/deep/local.txt': 'needle',
  'other/a.tmp': 'needle',
}

/** Files whose names a glob narrows to, some of them ignored; each holds `needle` (x/b.json twice). */
export const NAMES_TREE: Record<string, string> = {
  '.gitignore': 'secret.json\nout/\n',
  'secret.json': 'needle',
  'out/a.json': 'needle',
  'a.json': 'needle',
  'x/b.json': 'needle\nneedle\n',
  'x/c.jsonc': 'needle',
  'x/d.ts': 'needle',
  'x/e.tsx': 'needle',
}

/** The files of {@link IGNORE_TREE} git would not ignore, in path order. */
export const IGNORE_TREE_VISIBLE = [
  '.gitignore',
  'keep.log',
  'other/a.tmp',
  'pkg/.gitignore',
  'pkg/deep/local.txt',
  'pkg/important.log',
  'src/main.ts',
  'src/top-only.txt',
]
