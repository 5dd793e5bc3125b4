import {homedir} from 'node:os'
import {type AgentSession, canonicalize, type ImagePart, type ToolResult} from '@hanzo-dev/sdk'

import {FileWalk} from '../adapters/tools/file-walk.js'
import {workspaceRoot} from '../adapters/tools/workspace-path.js'
import {findMentions} from '../core/input/mentions.js'
import {resolvePaths} from '../core/paths.js'

/*
 * What a prompt's `@file` mentions and a `!command` line add to the conversation. Both run
 * through the session's own tools (fs_read, exec), so the permission rules, sandbox, workspace
 * checks, output caps and audit log apply to them as to the model's calls: a mention cannot read
 * what fs_read may not, and `!rm -rf /` meets the same policy as the model's `rm -rf /`.
 */

export interface Attached {
  /** The text sent with the prompt, one block per file. */
  context: string[]
  /** The images sent with the prompt (an image file mentioned, an image path pasted). */
  images: ImagePart[]
  /** A line per mention for the screen: attached, or why not. */
  notes: {ok: boolean; text: string}[]
}

/** `@path` mentions, and the `[Image #1]` placeholders of pasted image paths (`pasted`), read with fs_read. */
export async function attachMentions(
  session: AgentSession,
  text: string,
  signal: AbortSignal,
  pasted: ReadonlyArray<{label: string; path: string}> = [],
): Promise<Attached> {
  const attached: Attached = {context: [], images: [], notes: []}
  const mentioned = new Set(findMentions(text).map((mention) => mention.path))
  for (const {label, path} of [...[...mentioned].map((path) => ({label: `@${path}`, path})), ...pasted]) {
    const resource = session.tools.includes(READ_RESOURCE) ? resourceMention(path) : undefined
    if (resource) {
      await attachResource(session, resource, signal, attached)
      continue
    }

    const result = await session.callTool('fs_read', {path}, {signal})
    const refused = imagesRefused(session, result)
    if (result.is_error || refused) {
      attached.notes.push({ok: false, text: `${label} not attached: ${refused || result.error || result.output}`})
      continue
    }

    if (result.images) attached.images.push(...result.images)
    else attached.context.push(`<file path="${path}">\n${result.output}\n</file>`)
    attached.notes.push({
      ok: true,
      text: `Attached ${path}${result.images ? ` as ${label.startsWith('@') ? 'an image' : label}` : ''}`,
    })
  }

  return attached
}

/** The MCP plugin's tool for a server's resources: `@server:uri` mentions read through it, under the same rules as the model's reads. */
const READ_RESOURCE = 'mcp_read_resource'

/** Why a result's images cannot go to the session's model; false when they can, or there are none. */
function imagesRefused(session: AgentSession, result: ToolResult): string | false {
  return Boolean(result.images) && !session.takesImages && `this model does not take images (${session.model})`
}

/** `server:scheme:...` (`@everything:demo://resource/1`): a server's resource, not a file. */
function resourceMention(path: string): {server: string; uri: string} | undefined {
  const match = /^([\w-]+):([a-z][\d+.a-z-]*:\S+)$/i.exec(path)
  return match ? {server: match[1], uri: match[2]} : undefined
}

async function attachResource(
  session: AgentSession,
  resource: {server: string; uri: string},
  signal: AbortSignal,
  attached: Attached,
): Promise<void> {
  const label = `${resource.server}:${resource.uri}`
  const result = await session.callTool(READ_RESOURCE, resource, {signal})
  const refused = imagesRefused(session, result)
  if (result.is_error || refused) {
    attached.notes.push({ok: false, text: `@${label} not attached: ${refused || result.error || result.output}`})
    return
  }

  if (result.images) attached.images.push(...result.images)
  attached.context.push(`<resource server="${resource.server}" uri="${resource.uri}">\n${result.output}\n</resource>`)
  attached.notes.push({ok: true, text: `Attached ${label}`})
}

/** `!command`: its output for the screen, and the same as context for the next prompt. */
export async function runShellLine(
  session: AgentSession,
  command: string,
  signal: AbortSignal,
): Promise<{output: string; failed: boolean; context: string}> {
  const result = await session.callTool('exec', {command, description: 'Run by the user with !'}, {signal})
  const output = [result.output, result.is_error ? (result.error ?? '') : ''].filter(Boolean).join('\n').trimEnd()
  return {
    context: `The user ran \`${command}\` in the shell:\n${output || '(no output)'}`,
    failed: result.is_error,
    output,
  }
}

/**
 * Files under the session's directory for Tab completion, as fs_glob sees them (.gitignore
 * honoured, hanzo-dev's own directories left out); capped for huge trees.
 */
export async function projectFiles(cwd: string, signal: AbortSignal, maxEntries = 50_000): Promise<string[]> {
  const root = await workspaceRoot(cwd)
  const {configDir, dataDir} = resolvePaths(process.env, homedir())
  const hidden = await Promise.all([configDir, dataDir].map((path) => canonicalize(path)))
  const files: string[] = []
  for await (const file of new FileWalk({hidden, maxEntries, root, signal, start: root}).files())
    files.push(file.relative)
  return files
}
