import {type ToolResult, toolError, toolOk} from '@hanzo-dev/sdk'
import type {CallToolResult} from '@modelcontextprotocol/sdk/types.js'

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

/**
 * An MCP tool result as the model sees it: text as it is, an image or audio as a line saying
 * what it is (the loop's messages carry text), a resource's text or a note of its size, a
 * link as its URI, structured content as JSON when there is no text. `isError` stays an error
 * the model is told about, not one that ends the turn.
 */
export function toToolResult(result: CallToolResult): ToolResult {
  const parts = (result.content ?? []).map((item) => describe(item))
  if (parts.length === 0 && result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent))
  const text = visibleText(parts.join('\n'))
  return result.isError ? toolError(text || 'the MCP tool reported an error without a message') : toolOk(text)
}

function describe(item: Content): string {
  switch (item.type) {
    case 'text': {
      return item.text
    }

    case 'image':
    case 'audio': {
      return `[${item.type} ${item.mimeType}, ${Math.floor((item.data.length * 3) / 4)} bytes]`
    }

    case 'resource': {
      const {resource} = item
      if ('text' in resource && typeof resource.text === 'string') return `[resource ${resource.uri}]\n${resource.text}`
      const size =
        'blob' in resource && typeof resource.blob === 'string'
          ? `, ${Math.floor((resource.blob.length * 3) / 4)} bytes`
          : ''
      return `[resource ${resource.uri}${resource.mimeType ? ` ${resource.mimeType}` : ''}${size}]`
    }

    case 'resource_link': {
      return `[resource link ${item.uri}${item.name ? ` (${item.name})` : ''}]`
    }

    default: {
      return `[${(item as {type: string}).type} content]`
    }
  }
}
