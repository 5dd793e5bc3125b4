import {basename, join} from 'node:path'

import type {UntrustedSettings} from '@hanzo-dev/sdk'
import {REDACTED, redactUrl} from '@hanzo-dev/sdk/settings'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {isPlainObject, type JsonObject} from './key-path.js'
import {isSecretFlag, isSecretName} from './sensitive.js'
import {
  AGENTS_DIR,
  COMMANDS_DIR,
  SKILLS_DIR,
  type ProjectTier,
  type ProjectTrust,
  splitTrustedFiles,
  type TrustedSettings,
} from './trust.js'
import type {PermissionMode} from './types.js'

/**
 * What `hanzo-dev trust` shows before the user decides. Hooks and rules are shown as written:
 * they are the project's own text, and a trust decision needs all of it. MCP servers are shown
 * with their commands and arguments too (`node [redacted]` would tell nothing), less what may be
 * a secret: the value of a secret-named flag or variable (`--token X`, `--api-key=X`,
 * `API_TOKEN=X`), URLs beyond their scheme and host, and every env and header value.
 */

export interface TrustReview {
  tier: ProjectTier
  hooks: JsonObject[]
  mcp_servers: Record<string, JsonObject>
  permissions: Array<{pattern: string; mode: PermissionMode}>
  allowed_paths?: string[]
}

export function reviewTrust(settings: Partial<Record<ProjectTier, TrustedSettings>>): TrustReview[] {
  return (Object.entries(settings) as Array<[ProjectTier, TrustedSettings]>).map(([tier, s]) => ({
    hooks: s.hooks,
    mcp_servers: Object.fromEntries(
      Object.entries(s.mcp_servers).map(([name, server]) => [name, reviewServer(server)]),
    ),
    permissions: s.permissions.map(([pattern, mode]) => ({mode, pattern})),
    tier,
    ...(s.allowed_paths ? {allowed_paths: s.allowed_paths} : {}),
  }))
}

/**
 * What plugins are told of the hooks, MCP servers and agent files left out for want of trust, so
 * `mcp list`, `hooks list`, `agent --list` and doctor show them as not trusted instead of absent
 * (and the agents plugin loads no project agent); `undefined` when none are.
 * Shaped like the merged settings: hooks in tier order, servers by name (the local tier over the
 * project's, a new transport replacing the old one), each tagged with the tier that set it.
 */
export function untrustedForPlugins(
  trust: Pick<ProjectTrust, 'settings' | 'status'> & Partial<Pick<ProjectTrust, 'agents'>>,
): UntrustedSettings | undefined {
  if (trust.status !== 'untrusted' && trust.status !== 'changed') return undefined
  const hooks: JsonObject[] = []
  const servers: Record<string, JsonObject> = {}
  const order: ProjectTier[] = ['project', 'local']
  for (const review of reviewTrust(trust.settings).sort((a, b) => order.indexOf(a.tier) - order.indexOf(b.tier))) {
    hooks.push(...review.hooks.map((hook) => ({...hook, tier: review.tier})))
    for (const [name, server] of Object.entries(review.mcp_servers)) {
      const replaced = server.url === undefined ? (server.command === undefined ? [] : ['url']) : ['command', 'args']
      const earlier = Object.fromEntries(
        Object.entries(servers[name] ?? {}).filter(([field]) => !replaced.includes(field)),
      )
      const tier = replaced.length > 0 || earlier.tier === undefined ? review.tier : earlier.tier
      servers[name] = {...earlier, ...server, tier}
    }
  }

  const agents = Object.keys(trust.agents ?? {})
  if (hooks.length === 0 && Object.keys(servers).length === 0 && agents.length === 0) return undefined
  return {hooks, mcp_servers: servers, status: trust.status, ...(agents.length > 0 ? {agents} : {})}
}

/**
 * The review as text, one section per settings file (`files` names each tier's file), then the
 * project's agent files (in `agents.dir`), shown by name: the user reads them in the files.
 */
export function renderTrustReview(
  review: readonly TrustReview[],
  files: Readonly<Record<ProjectTier, string>>,
  trusted?: {projectDir: string; files: readonly string[]},
): string[] {
  const lines: string[] = []
  for (const {allowed_paths: allowed = [], hooks, mcp_servers: servers, permissions, tier} of review) {
    lines.push(`${files[tier]}:`)
    if (hooks.length > 0) lines.push('  hooks (shell commands run around tool calls and session events):')
    for (const hook of hooks)
      lines.push(`    ${entry(`${String(hook.event)} (tools: ${String(hook.tool_pattern)}): ${String(hook.command)}`)}`)
    if (Object.keys(servers).length > 0) lines.push('  MCP servers (started or connected to at every run):')
    for (const [name, server] of Object.entries(servers))
      lines.push(`    ${entry(`${name}: ${describeServer(server)}`)}`)
    if (permissions.length > 0)
      lines.push('  permission rules (allow runs a tool without asking; the first match wins):')
    for (const {mode, pattern} of permissions) lines.push(`    ${entry(`${pattern}: ${mode}`)}`)
    if (allowed.length > 0) lines.push('  sandbox.allowed_paths (where commands may write in allowlist mode):')
    for (const path of allowed) lines.push(`    ${entry(path)}`)
  }

  const {agents, commands, skills} = splitTrustedFiles(trusted?.files ?? [])
  if (agents.length > 0) {
    lines.push(
      `${join(trusted!.projectDir, AGENTS_DIR)}:`,
      '  agents (instructions, tools and permission mode for hanzo-dev agent and the agent commands; read them first):',
    )
    for (const file of agents) lines.push(`    ${entry(file)}`)
  }

  if (commands.length > 0) {
    lines.push(
      `${join(trusted!.projectDir, COMMANDS_DIR)}:`,
      '  slash commands (prompts the chat sends as yours, and the tools they may use; read them first):',
    )
    for (const file of commands) lines.push(`    ${entry(basename(file))}`)
  }

  if (skills.length > 0) {
    lines.push(
      `${join(trusted!.projectDir, SKILLS_DIR)}:`,
      '  skills (instructions and files the model loads when it calls the skill tool; read them first):',
    )
    for (const file of skills) lines.push(`    ${entry(file.slice(SKILLS_DIR.length + 1))}`)
  }

  return lines
}

/**
 * One entry of the review on one line, whole: a newline in a project's hook command must not
 * start what looks like another, harmless entry, and nothing in it may drive the terminal.
 */
function entry(text: string): string {
  return oneLine(text, Number.POSITIVE_INFINITY)
}

function reviewServer(server: JsonObject): JsonObject {
  const out: JsonObject = {}
  for (const [field, value] of Object.entries(server)) {
    if (field === 'env' || field === 'headers')
      out[field] = isPlainObject(value) ? Object.fromEntries(Object.keys(value).map((k) => [k, REDACTED])) : REDACTED
    else if (field === 'url') out[field] = typeof value === 'string' ? redactUrl(value) : REDACTED
    else if (field === 'command' && typeof value === 'string') out[field] = redactWords(value.split(' ')).join(' ')
    else if (field === 'command' || field === 'args') out[field] = Array.isArray(value) ? redactWords(value) : REDACTED
    else out[field] = value
  }

  return out
}

/** Words of an argv or command line, with secret values and URL paths redacted. */
function redactWords(words: readonly unknown[]): unknown[] {
  return words.map((word, i) => {
    if (typeof word !== 'string') return word
    if (i > 0 && typeof words[i - 1] === 'string' && isSecretFlag(words[i - 1] as string)) return REDACTED
    const assignment = /^(-{0,2}[A-Za-z_][\w.-]*)=/.exec(word)
    if (assignment && isSecretName(assignment[1].replace(/^-+/, ''))) return `${assignment[1]}=${REDACTED}`
    return /^[a-z][\d+.a-z-]*:\/\//i.test(word) ? redactUrl(word) : word
  })
}

function describeServer(server: JsonObject): string {
  const argv = [server.command, server.args].flatMap((part) =>
    Array.isArray(part) ? part : part === undefined ? [] : [part],
  )
  const names = (field: string) => (isPlainObject(server[field]) ? Object.keys(server[field]) : [])
  const extras = [
    names('env').length > 0 ? `env: ${names('env').join(', ')}` : '',
    names('headers').length > 0 ? `headers: ${names('headers').join(', ')}` : '',
    server.disabled === true ? 'disabled' : '',
  ].filter(Boolean)
  const target = typeof server.url === 'string' ? server.url : argv.join(' ')
  return `${target || '(no command or URL)'}${extras.length > 0 ? `  (${extras.join('; ')})` : ''}`
}
