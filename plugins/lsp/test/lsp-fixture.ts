import {mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'

import type {ToolDefinition, ToolResult} from '@hanzo-dev/sdk'

import {REPO_ROOT} from '../../../test/helpers/cli.js'
import {readLspSettings} from '../src/lsp-settings.js'
import {ServerManager, type ServerManagerOptions} from '../src/server-manager.js'

/** Where the dev dependencies typescript-language-server and pyright put their commands. */
export const SERVER_BIN = join(REPO_ROOT, 'node_modules', '.bin')

/**
 * A language server named `name` in `dir` that answers initialize at once and publishes a file's
 * diagnostics only `delayMs` after it is opened (test/fixtures/slow-server.mjs): a server still
 * loading a large project. Returns its path.
 */
export function slowServer(dir: string, name: string, delayMs: number): string {
  const path = join(dir, name)
  const script = join(import.meta.dirname, 'fixtures', 'slow-server.mjs')
  mkdirSync(dir, {recursive: true})
  writeFileSync(path, `#!/bin/sh\nexec '${process.execPath}' '${script}' ${delayMs}\n`, {mode: 0o755})
  return path
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), {recursive: true})
    writeFileSync(join(root, path), text)
  }
}

/**
 * A TypeScript project with the repository's node_modules linked in, as a project with the
 * servers as dev dependencies has them: the server is found in node_modules/.bin, not on PATH.
 */
export function makeTsProject(root: string, files: Record<string, string>): void {
  mkdirSync(root, {recursive: true})
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'))
  // No @types from the linked node_modules: the project loads in a fraction of the time.
  writeFiles(root, {
    'tsconfig.json': JSON.stringify({
      compilerOptions: {module: 'NodeNext', strict: true, target: 'ES2022', types: []},
      include: ['src'],
    }),
    ...files,
  })
}

export function makeManager(projectRoot: string, options: Partial<ServerManagerOptions> & {lsp?: unknown} = {}) {
  const reports: string[] = []
  const manager = new ServerManager({
    env: {PATH: process.env.PATH},
    projectRoot,
    report: (message) => reports.push(message),
    // The servers are the repository's dev dependencies, in the project's node_modules/.bin.
    settings: readLspSettings({lsp: {project_servers: true, ...(options.lsp as object | undefined)}}),
    ...options,
  })
  return {manager, reports}
}

export function callTool(
  tools: ToolDefinition[],
  name: string,
  input: Record<string, unknown>,
  cwd: string,
): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === name)
  if (!tool) throw new Error(`no tool ${name}`)
  return tool.execute(input, {cwd, sessionId: 's', signal: new AbortController().signal})
}

/** The live processes of process group `pgid` (Linux /proc). */
export function groupMembers(pgid: number): number[] {
  const members: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(pgrp) === pgid && state !== 'Z') members.push(Number(entry))
    } catch {
      // Gone while we looked.
    }
  }

  return members
}

/** The live processes whose command line contains `text`. */
export function processesWith(text: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => {
      if (!/^\d+$/.test(entry)) return false
      try {
        return (
          readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(text) &&
          !readFileSync(`/proc/${entry}/stat`, 'utf8').includes(') Z ')
        )
      } catch {
        return false
      }
    })
    .map(Number)
}

/** The live processes working in `dir` (a language server runs in its workspace). */
export function processesIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => {
      if (!/^\d+$/.test(entry)) return false
      try {
        return (
          readlinkSync(`/proc/${entry}/cwd`) === dir && !readFileSync(`/proc/${entry}/stat`, 'utf8').includes(') Z ')
        )
      } catch {
        return false
      }
    })
    .map(Number)
}
