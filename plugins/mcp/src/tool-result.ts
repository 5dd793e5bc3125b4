import {type ImagePart, type ImageMediaType, type ToolResult, toolError, toolOk} from '@hanzo-dev/sdk'
import type {CallToolResult, ReadResourceResult} from '@modelcontextprotocol/sdk/types.js'

/**
 * Characters that hide or reorder text: C0/C1 controls (but tab and newline), zero-width and
 * bidirectional marks. A server could use them to hide instructions from the user that the
 * model still reads, so descriptions and results are shown without them.
 */
const HIDDEN =
  // eslint-disable-next-line no-control-regex -- the point is to match them
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/gu

export function visibleText(text: string): string {
  return text.replaceAll(HIDDEN, '')
}

type Content = CallToolResult['content'][number]
type ResourceContents = ReadResourceResult['contents'][number]

/** The tool the model reads a server's resources with (resource-tool.ts). */
export const READ_RESOURCE_TOOL = 'mcp_read_resource'

/** The images every provider takes; another picture is described, not sent. */
const IMAGE_TYPES: ReadonlySet<string> = new Set<ImageMediaType>(['image/gif', 'image/jpeg', 'image/png', 'image/webp'])

/**
 * An MCP tool result as the model sees it: text as it is, an image as an image, audio as a line
 * saying what it is, a resource's text or a note of its size, a link as its URI and how to read
 * it (`server`'s {@link READ_RESOURCE_TOOL}), structured content as JSON when there is no text.
 * `isError` stays an error the model is told about, not one that ends the turn.
 */
export function toToolResult(result: CallToolResult, server: string): ToolResult {
  const images: ImagePart[] = []
  const parts = (result.content ?? []).map((item) => describe(item, server, images))
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent))
  const text = visibleText(parts.join('\n'))
  if (result.isError) return toolError(text || 'the MCP tool reported an error without a message')
  return withImages(toolOk(text), images)
}

/** A `resources/read` answer as the model sees it: each part's text, pictures as images, other binaries described. */
export function resourceResult(result: ReadResourceResult): ToolResult {
  const images: ImagePart[] = []
  // No hint to read it: this is the read.
  const text = visibleText(result.contents.map((contents) => resourceText(contents, undefined, images)).join('\n'))
  return withImages(toolOk(text), images)
}

/** A resource's text as context, or what it is when it has none. */
export function resourceText(contents: ResourceContents, server: string | undefined, images?: ImagePart[]): string {
  const mime = contents.mimeType ? ` ${contents.mimeType}` : ''
  if ('text' in contents && typeof contents.text === 'string')
    return `[resource ${contents.uri}${mime}]\n${contents.text}`
  const blob = 'blob' in contents && typeof contents.blob === 'string' ? contents.blob : ''
  if (images && contents.mimeType && IMAGE_TYPES.has(contents.mimeType) && blob) {
    images.push({data: blob, mediaType: contents.mimeType as ImageMediaType, name: contents.uri, type: 'image'})
    return `[resource ${contents.uri}${mime}: the image follows]`
  }

  return `[resource ${contents.uri}${mime}, ${bytes(blob)} bytes${server ? readHint(server, contents.uri, ' (binary)') : ' (binary)'}]`
}

function describe(item: Content, server: string, images: ImagePart[]): string {
  switch (item.type) {
    case 'text': {
      return item.text
    }

    case 'image': {
      if (IMAGE_TYPES.has(item.mimeType)) {
        images.push({data: item.data, mediaType: item.mimeType as ImageMediaType, name: 'image', type: 'image'})
        return `[image ${item.mimeType}, ${bytes(item.data)} bytes: follows]`
      }

      return `[image ${item.mimeType}, ${bytes(item.data)} bytes]`
    }

    case 'audio': {
      return `[${item.type} ${item.mimeType}, ${bytes(item.data)} bytes]`
    }

    case 'resource': {
      return resourceText(item.resource, server)
    }

    case 'resource_link': {
      return `[resource link ${item.uri}${item.name ? ` (${item.name})` : ''}${readHint(server, item.uri)}]`
    }

    default: {
      return `[${(item as {type: string}).type} content]`
    }
  }
}

/** How the model reads a resource it was only told about. */
function readHint(server: string, uri: string, what = ''): string {
  return `${what}: read it with ${READ_RESOURCE_TOOL} ${JSON.stringify({server, uri})}`
}

function bytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4)
}

function withImages(result: ToolResult, images: ImagePart[]): ToolResult {
  return images.length > 0 ? {...result, images} : result
}
