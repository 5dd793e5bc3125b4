import {createHash} from 'node:crypto'
import {join} from 'node:path'

import {isPlainObject, type JsonObject, unsetAt} from './key-path.js'
import {PROJECT_DIR} from './locate.js'
import {changesWhatRuns} from './merge.js'
import type {CheckedTier} from './tier-check.js'
import {type ConfigWarning, HOOK_DEFAULTS, type PermissionMode, type Tier} from './types.js'

/**
 * Project trust (CVE-2025-59536: hooks and MCP servers in a cloned repository's settings ran
 * before its user had a say). What the project and local tiers set that runs code or lets tools
 * run unasked stays out of the effective settings until the user runs `hanzo-dev trust`, which
 * records a SHA-256 of exactly those settings; once they change they are left out again.
 *
 * What needs trust, in each of the two tiers (after tier-check.ts and redirect-guard.ts dropped
 * what those tiers may never set):
 * - `hooks`, every field, in order: each is a shell command, and its pattern, timeout and
 *   `fail_open` decide when it runs and what it lets through.
 * - each `mcp_servers` entry that does more than `"disabled": true` (a command, a URL, args, env
 *   or headers all change what runs or where it connects; turning a server off only takes away).
 * - the `permissions` rules up to the tier's last `allow`, in file order: an allow lets a tool run
 *   unasked, and what it lets through depends on the rules before it in the same file (the
 *   first match wins). Deny and prompt rules only ever refuse or ask more, so they apply without
 *   trust, and one added after the last allow leaves the trust in place.
 * - `sandbox.allowed_paths`: where allowlist mode lets commands write (inside the project only:
 *   tier-check.ts; the sandbox drops one a symlink leads out of).
 * - the project's agent definitions (`.hanzo/agents/*.md`, by name and a SHA-256 of each): an
 *   agent's instructions, tools and permission mode are the project's to choose once trusted.
 *   Likewise its slash commands (`.hanzo/commands/*.md`) and skills (every file of each
 *   `.hanzo/skills/NAME/` folder): text the model is handed as instructions.
 * Everything else (model, instructions, the rest of sandbox, ...) applies without trust: a change
 * to `model` must not cost the trust. The digest covers the settings and agent files, not the files their commands run.
 * The user tier and the environment are the user's own and always apply.
 */

export type ProjectTier = Exclude<Tier, 'user'>

/** One tier's settings that need trust, as written: what `hanzo-dev trust` shows and the digest covers. */
export interface TrustedSettings {
  hooks: JsonObject[]
  mcp_servers: Record<string, JsonObject>
  /** `[pattern, mode]` up to the tier's last allow rule, in file order. */
  permissions: Array<[string, PermissionMode]>
  /** `sandbox.allowed_paths`, when the tier sets any (absent otherwise, so older digests still match). */
  allowed_paths?: string[]
}

/** What the trust store (src/adapters/trust-store.ts) knows about one project. */
export interface TrustRecord {
  trusted?: {digest: string; at: string}
  /** The digest whose "left out" warning was shown last: it is said once per change. */
  noticed?: string
}

/** The loader's way to the trust store; project roots are passed as the loader found them. */
export interface ProjectTrustPort {
  lookup(projectRoot: string): Promise<TrustRecord>
  /** Remembers that the warning about `digest` was shown; a store that cannot remember lets it show again. */
  noteNoticed(projectRoot: string, digest: string): Promise<void>
}

/**
 * - `not-needed`: the project and local tiers set nothing that needs trust.
 * - `trusted`: the user trusted exactly these settings.
 * - `untrusted` / `changed`: never trusted / trusted before they changed; they are left out.
 * - `unchecked`: the loader had no trust store, so everything applies (HIP-301's plain merge).
 */
export type TrustStatus = 'not-needed' | 'trusted' | 'untrusted' | 'changed' | 'unchecked'

/**
 * The project's agent files (`.hanzo/agents/*.md`, by file name), slash-command files
 * (`.hanzo/commands/*.md`, as `commands/NAME.md`) and skill files (`.hanzo/skills/NAME/PATH`, as
 * `skills/NAME/PATH`) -> SHA-256 (hex) of each text.
 */
export type ProjectAgents = Record<string, string>

/** Where the project's agent definitions are, below the project root. */
export const AGENTS_DIR = 'agents'
/** Where the project's slash commands are (the chat's custom commands), below the project root. */
export const COMMANDS_DIR = 'commands'

/** Where the project's skills are (a folder each, with its SKILL.md), below the project root. */
export const SKILLS_DIR = 'skills'

/** The name a command file has among the trusted files: agent files keep their plain names, so their digests stay. */
export function commandFileKey(name: string): string {
  return `${COMMANDS_DIR}/${name}`
}

/** The name a file of skill `skill` (`path` relative to its folder) has among the trusted files. */
export function skillFileKey(skill: string, path: string): string {
  return `${SKILLS_DIR}/${skill}/${path}`
}

/** The command files and skill files among `names` (as the keys above name them), and the agent files. */
export function splitTrustedFiles(names: readonly string[]): {agents: string[]; commands: string[]; skills: string[]} {
  const commands = names.filter((name) => name.startsWith(`${COMMANDS_DIR}/`))
  const skills = names.filter((name) => name.startsWith(`${SKILLS_DIR}/`))
  return {agents: names.filter((name) => !commands.includes(name) && !skills.includes(name)), commands, skills}
}

/** The skills (folder names) the files named `names` belong to, each once. */
export function skillNames(names: readonly string[]): string[] {
  return [...new Set(splitTrustedFiles(names).skills.map((name) => name.split('/')[1]))]
}

/** What was left out of the effective settings for want of trust. */
export interface InertSettings {
  hooks: number
  mcpServers: string[]
  allowRules: string[]
  allowedPaths: string[]
  /** The agent (and command) files that must not be loaded. */
  agents: string[]
}

export interface ProjectTrust {
  status: TrustStatus
  /** SHA-256 (hex) of {@link settings} and {@link agents}; absent when both are empty. */
  digest?: string
  settings: Partial<Record<ProjectTier, TrustedSettings>>
  agents: ProjectAgents
  inert: InertSettings
}

/** The agent files as the digest covers them: each by name, with a hash of its text. */
export function projectAgents(files: ReadonlyArray<{name: string; text: string}>): ProjectAgents {
  return Object.fromEntries(files.map(({name, text}) => [name, createHash('sha256').update(text).digest('hex')]))
}

/** The settings of the project and local tiers that need trust; tiers with none are absent. */
export function settingsNeedingTrust(tiers: readonly CheckedTier[]): Partial<Record<ProjectTier, TrustedSettings>> {
  const found: Partial<Record<ProjectTier, TrustedSettings>> = {}
  for (const {data, tier} of tiers) {
    if (tier === 'user') continue
    const hooks = (Array.isArray(data.hooks) ? data.hooks : []).map((hook) => ({
      ...HOOK_DEFAULTS,
      ...(hook as JsonObject),
    }))
    const servers = Object.entries(isPlainObject(data.mcp_servers) ? data.mcp_servers : {}).filter(
      (entry): entry is [string, JsonObject] => isPlainObject(entry[1]) && changesWhatRuns(entry[1]),
    )
    const rules = Object.entries(isPlainObject(data.permissions) ? data.permissions : {}) as Array<
      [string, PermissionMode]
    >
    const permissions = rules.slice(0, rules.findLastIndex(([, mode]) => mode === 'allow') + 1)
    const allowed = allowedPaths(data)
    if (hooks.length > 0 || servers.length > 0 || permissions.length > 0 || allowed.length > 0) {
      found[tier] = {
        hooks,
        mcp_servers: Object.fromEntries(servers),
        permissions,
        ...(allowed.length > 0 ? {allowed_paths: allowed} : {}),
      }
    }
  }

  return found
}

/**
 * SHA-256 of the settings (and agent files) as canonical JSON (object keys sorted; lists keep
 * their order, which matters). Without agent files it is the digest of the settings alone, so
 * what was trusted before agent files counted is still trusted.
 */
export function trustDigest(
  settings: Partial<Record<ProjectTier, TrustedSettings>>,
  agents: ProjectAgents = {},
): string | undefined {
  const covered = Object.keys(agents).length > 0 ? {...settings, agents} : settings
  if (Object.keys(covered).length === 0) return undefined
  return createHash('sha256').update(canonicalJson(covered)).digest('hex')
}

/**
 * Decides the project's trust and, unless it is trusted, takes what needs trust out of `tiers`
 * (in place, before the merge: a project allow must not even replace the user's rule for the
 * same pattern). One warning says what was left out, once per digest.
 */
export async function applyProjectTrust(
  tiers: CheckedTier[],
  projectRoot: string,
  port: ProjectTrustPort | undefined,
  agents: ProjectAgents = {},
): Promise<{trust: ProjectTrust; warnings: ConfigWarning[]}> {
  const settings = settingsNeedingTrust(tiers)
  const digest = trustDigest(settings, agents)
  const inert: InertSettings = {agents: [], allowedPaths: [], allowRules: [], hooks: 0, mcpServers: []}
  const result = (status: TrustStatus, warnings: ConfigWarning[] = []) => ({
    trust: {agents, digest, inert, settings, status},
    warnings,
  })
  if (digest === undefined) return result('not-needed')
  if (port === undefined) return result('unchecked')
  const record = await port.lookup(projectRoot)
  const status = trustStatus(digest, record)
  if (status === 'trusted') return result(status)

  leaveOutUntrusted(tiers, inert)
  inert.agents.push(...Object.keys(agents))
  if (record.noticed === digest) return result(status)
  await port.noteNoticed(projectRoot, digest)
  return result(status, [{file: join(projectRoot, PROJECT_DIR), message: inertMessage(status, inert)}])
}

/** Whether settings with `digest` are trusted by `record`, and if not, whether they ever were. */
export function trustStatus(digest: string | undefined, record: TrustRecord): Exclude<TrustStatus, 'unchecked'> {
  if (digest === undefined) return 'not-needed'
  if (record.trusted?.digest === digest) return 'trusted'
  return record.trusted ? 'changed' : 'untrusted'
}

function allowedPaths(data: JsonObject): string[] {
  const paths = isPlainObject(data.sandbox) ? data.sandbox.allowed_paths : undefined
  return Array.isArray(paths) ? paths.filter((p): p is string => typeof p === 'string') : []
}

/**
 * Removes hooks, allow rules, MCP servers and allowed paths from the project and local tiers. A server's
 * `"disabled": true` stays when an earlier tier defines the server: turning it off needs no trust.
 */
function leaveOutUntrusted(tiers: CheckedTier[], inert: InertSettings): void {
  const named = new Set<string>()
  for (const {data, tier} of tiers) {
    const servers = isPlainObject(data.mcp_servers) ? data.mcp_servers : {}
    if (tier !== 'user') {
      if (Array.isArray(data.hooks)) inert.hooks += data.hooks.length
      unsetAt(data, ['hooks'])
      for (const [name, server] of Object.entries(servers)) {
        if (!isPlainObject(server) || !changesWhatRuns(server)) continue
        inert.mcpServers.push(name)
        if (server.disabled === true && named.has(name)) servers[name] = {disabled: true}
        else unsetAt(data, ['mcp_servers', name])
      }

      for (const [pattern, mode] of Object.entries(isPlainObject(data.permissions) ? data.permissions : {})) {
        if (mode !== 'allow') continue
        inert.allowRules.push(pattern)
        unsetAt(data, ['permissions', pattern])
      }

      inert.allowedPaths.push(...allowedPaths(data))
      unsetAt(data, ['sandbox', 'allowed_paths'])
    }

    for (const name of Object.keys(servers)) named.add(name)
  }
}

function inertMessage(status: TrustStatus, inert: InertSettings): string {
  const files = splitTrustedFiles(inert.agents)
  const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`
  const parts = [
    inert.hooks > 0 ? plural(inert.hooks, 'hook') : '',
    inert.mcpServers.length > 0
      ? `MCP server${inert.mcpServers.length === 1 ? '' : 's'} ${inert.mcpServers.map((n) => JSON.stringify(n)).join(', ')}`
      : '',
    inert.allowRules.length > 0 ? plural(inert.allowRules.length, 'allow rule') : '',
    inert.allowedPaths.length > 0
      ? `sandbox.allowed_paths ${inert.allowedPaths.map((p) => JSON.stringify(p)).join(', ')}`
      : '',
    files.agents.length > 0 ? `${plural(files.agents.length, 'agent file')} in ${PROJECT_DIR}/${AGENTS_DIR}` : '',
    files.commands.length > 0
      ? `${plural(files.commands.length, 'command file')} in ${PROJECT_DIR}/${COMMANDS_DIR}`
      : '',
    files.skills.length > 0
      ? `${plural(skillNames(files.skills).length, 'skill')} in ${PROJECT_DIR}/${SKILLS_DIR}`
      : '',
  ].filter(Boolean)
  const why =
    status === 'changed' ? 'these settings changed since you trusted this project' : 'this project is not trusted'
  return `ignored: ${parts.join(', ')} (${why}); run "hanzo-dev trust" to review and trust them`
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`
  if (!isPlainObject(value)) return JSON.stringify(value)
  const keys = Object.keys(value).sort()
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`
}
