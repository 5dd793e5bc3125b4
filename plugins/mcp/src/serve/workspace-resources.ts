import {readFile, realpath} from 'node:fs/promises'
import {isAbsolute, join, relative, sep} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import type {AgentSession} from '@hanzo-dev/sdk'
import type {Server} from '@modelcontextprotocol/sdk/server/index.js'
import type {ReadResourceResult, Resource} from '@modelcontextprotocol/sdk/types.js'

import {type Completer, completeFrom} from './completion.js'
import {page} from './page.js'

/** A file read whole as one resource: a bigger one is refused (fs_read pages through it instead). */
export const RESOURCE_MAX_BYTES = 1024 * 1024

/** What the suite adds to the server's capabilities when it registers the workspace's files. */
export const RESOURCE_CAPABILITIES = {completions: {}, resources: {}}

/**
 * The workspace's files as `file://` resources. The list is fs_glob's (so what .gitignore and
 * the hidden paths keep from the fs tools stays out of it), and a read is put to the policy and
 * then to fs_read itself, through the session, before a byte is sent: a denied path, a path
 * outside the workspace, a symbolic link out of it, a hidden or binary file come back as an MCP
 * error saying why, as the tool would have told a model. Returns what completes the template's
 * path (completion/complete has one handler for every reference: tool-server.ts).
 */
export async function registerWorkspaceResources(
  server: Server,
  session: AgentSession,
): Promise<(uri: string) => Completer> {
  const types = await import('@modelcontextprotocol/sdk/types.js')
  const {ErrorCode, McpError} = types
  const root = await realpath(session.cwd)
  const template = `${pathToFileURL(root).href}/{path}`

  const files = async (): Promise<string[]> => {
    const listed = await session.callTool('fs_glob', {pattern: '**/*'})
    if (listed.is_error) throw new McpError(ErrorCode.InternalError, listed.error ?? listed.output)
    // The tool's notes (no match, "… and N more", an incomplete walk) are not paths.
    return listed.output.split('\n').filter((line) => line && !/^(No files match |… and \d|\[)/.test(line))
  }

  const resource = (path: string): Resource => ({
    mimeType: 'text/plain',
    name: path,
    uri: pathToFileURL(join(root, path)).href,
  })

  // The list is fs_glob's, capped as it is.
  server.setRequestHandler(types.ListResourcesRequestSchema, async (request) => {
    const {items, nextCursor} = await page(await files(), request.params?.cursor)
    return {resources: items.map(resource), ...(nextCursor ? {nextCursor} : {})}
  })

  server.setRequestHandler(types.ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [
      {
        description: 'A file of the workspace, by its path relative to the workspace root',
        name: 'workspace-file',
        uriTemplate: template,
      },
    ],
  }))

  server.setRequestHandler(types.ReadResourceRequestSchema, async (request): Promise<ReadResourceResult> => {
    const {uri} = request.params
    const path = workspacePath(uri, root)
    if (path === undefined)
      throw new McpError(ErrorCode.InvalidParams, `${uri}: not a file:// URI of this workspace (${root})`)
    const verdict = await session.verdict('fs_read', {path})
    if (verdict.decision === 'deny')
      throw new McpError(
        ErrorCode.InvalidRequest,
        `Refused by hanzo-dev's permission policy: ${verdict.reason ?? `denied by ${verdict.rule ?? 'a rule'}`}`,
      )
    const read = await session.callTool('fs_read', {path})
    if (read.is_error) throw new McpError(ErrorCode.InvalidRequest, read.error ?? read.output)
    const [image] = read.images ?? []
    if (image) return {contents: [{blob: image.data, mimeType: image.mediaType, uri}]}
    // fs_read vouched for this very file (inside, not a link out, not hidden, text): it is sent whole.
    const absolute = join(root, path)
    if ((await realpath(absolute)) !== absolute)
      throw new McpError(ErrorCode.InvalidRequest, `${path} is a symbolic link: read the file it names`)
    const bytes = await readFile(absolute)
    if (bytes.length > RESOURCE_MAX_BYTES)
      throw new McpError(
        ErrorCode.InvalidRequest,
        `${path} is ${bytes.length} bytes, over the ${RESOURCE_MAX_BYTES} a resource carries: page through it with fs_read`,
      )
    return {contents: [{mimeType: 'text/plain', text: bytes.toString('utf8'), uri}]}
  })

  return (uri) => async (argument) =>
    completeFrom(uri === template && argument.name === 'path' ? await files() : [], argument.value)
}

/** The workspace-relative path a file:// URI names, or undefined when it is another scheme. */
function workspacePath(uri: string, root: string): string | undefined {
  let absolute: string
  try {
    absolute = fileURLToPath(uri)
  } catch {
    return undefined
  }

  // A path outside stays outside: fs_read refuses it in its own words.
  const inside = relative(root, absolute)
  return isAbsolute(inside) ? absolute : inside.split(sep).join('/')
}
