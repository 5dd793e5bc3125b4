import {access, readdir, readFile} from 'node:fs/promises'
import {basename, join} from 'node:path'

import {writeFileAtomic} from './atomic-write.js'

/** What `/init` learns of a repository for its AGENTS.md. */
export interface RepoFacts {
  name: string
  packageManager?: string
  scripts: Record<string, string>
  testCommand?: string
  /** Top-level directories, sorted. */
  directories: string[]
}

export type InitOutcome =
  {written: true; path: string; facts: RepoFacts} | {written: false; path: string; reason: string}

export const AGENTS_FILE = 'AGENTS.md'

// Build output and dependencies: nothing an agent should be told to edit.
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'coverage', 'target', 'out', 'vendor', '__pycache__'])

const LOCKFILES: Array<[string, string]> = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
]

/**
 * `/init`: writes AGENTS.md at the project root from what the repository says of itself. An
 * existing AGENTS.md is the user's: it is replaced only with `force`. The write is atomic, so
 * an interrupted `/init` never leaves half a file.
 */
export async function initAgentsMd(root: string, options: {force: boolean}): Promise<InitOutcome> {
  const path = join(root, AGENTS_FILE)
  if (!options.force && (await exists(path)))
    return {path, reason: `${AGENTS_FILE} exists already (/init --force replaces it)`, written: false}
  const facts = await readRepoFacts(root)
  await writeFileAtomic(path, renderAgentsMd(facts))
  return {facts, path, written: true}
}

export async function readRepoFacts(root: string): Promise<RepoFacts> {
  const pkg = await readJson(join(root, 'package.json'))
  const scripts = isRecord(pkg?.scripts)
    ? Object.fromEntries(
        Object.entries(pkg.scripts).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      )
    : {}
  const packageManager = pkg ? await nodePackageManager(root, pkg) : await otherToolchain(root)
  const entries = await readdir(root, {withFileTypes: true})
  const directories = entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && !SKIPPED_DIRS.has(e.name))
    .map((e) => e.name)
    .sort()
  return {
    directories,
    name: typeof pkg?.name === 'string' ? pkg.name : basename(root),
    packageManager,
    scripts,
    testCommand: testCommand(packageManager, scripts),
  }
}

export function renderAgentsMd(facts: RepoFacts): string {
  const lines = [
    `# ${facts.name}`,
    '',
    'Instructions for coding agents working in this repository (hanzo-dev, Codex and others read this file).',
    '',
  ]
  lines.push('## Tooling', '')
  lines.push(facts.packageManager ? `- Package manager: ${facts.packageManager}` : '- Package manager: (none found)')
  if (facts.testCommand) lines.push(`- Tests: \`${facts.testCommand}\``)
  lines.push('')
  const scripts = Object.entries(facts.scripts)
  if (scripts.length > 0) {
    lines.push('## Scripts', '')
    for (const [name, command] of scripts) lines.push(`- \`${run(facts.packageManager, name)}\`: \`${command}\``)
    lines.push('')
  }

  lines.push('## Layout', '')
  if (facts.directories.length === 0) lines.push('- (no directories yet)')
  for (const dir of facts.directories) lines.push(`- \`${dir}/\`: TODO what lives here`)
  lines.push('', '## Conventions', '', '- TODO: code style, naming, what to check before a commit.', '')
  return lines.join('\n')
}

async function nodePackageManager(root: string, pkg: Record<string, unknown>): Promise<string> {
  // The `packageManager` field (corepack) is what the project says; a lockfile is what it did.
  if (typeof pkg.packageManager === 'string') return pkg.packageManager.split('@', 1)[0]
  for (const [file, manager] of LOCKFILES) if (await exists(join(root, file))) return manager
  return 'npm'
}

async function otherToolchain(root: string): Promise<string | undefined> {
  for (const [file, tool] of [
    ['Cargo.toml', 'cargo'],
    ['go.mod', 'go'],
    ['pyproject.toml', 'pip / pyproject'],
    ['requirements.txt', 'pip'],
  ]) {
    if (await exists(join(root, file))) return tool
  }

  return undefined
}

function testCommand(manager: string | undefined, scripts: Record<string, string>): string | undefined {
  if (scripts.test) return `${manager} test`
  if (manager === 'cargo') return 'cargo test'
  if (manager === 'go') return 'go test ./...'
  if (manager?.startsWith('pip')) return 'pytest'
  return undefined
}

function run(manager: string | undefined, script: string): string {
  return `${manager === 'yarn' || manager === 'pnpm' || manager === 'bun' ? manager : 'npm run'} ${script}`
}

async function readJson(path: string): Promise<Record<string, unknown> | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined)
  if (text === undefined) return undefined
  try {
    const value: unknown = JSON.parse(text)
    return isRecord(value) ? value : undefined
  } catch {
    return undefined
  }
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  )
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
