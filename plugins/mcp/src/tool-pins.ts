import {createHash} from 'node:crypto'
import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {isRecord} from '@hanzo-dev/sdk'
import type {Tool} from '@modelcontextprotocol/sdk/types.js'

type Pins = Record<string, Record<string, string>>

/**
 * What each MCP tool looked like when the user last let it run: a hash of its description and
 * schemas, per server and tool, in `<data dir>/mcp/tool-pins.json`. A server that changes a
 * tool after that (a "rug pull": new instructions in the description) gets it asked about
 * again, whatever the rules allow; running it once more pins the new definition.
 */
export class ToolPins {
  private constructor(
    private readonly file: string,
    private readonly pins: Pins,
    private readonly write: (path: string, data: string, options: {mode: number}) => Promise<void>,
  ) {}

  static async open(dataDir: string, write: ToolPins['write']): Promise<ToolPins> {
    const file = join(dataDir, 'mcp', 'tool-pins.json')
    const text = await readFile(file, 'utf8').catch(() => '{}')
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      // A damaged pin file pins nothing: every tool is as new, which only asks more.
      parsed = {}
    }

    const pins: Pins = {}
    if (isRecord(parsed))
      for (const [server, tools] of Object.entries(parsed))
        if (isRecord(tools))
          pins[server] = Object.fromEntries(
            Object.entries(tools).filter(([, hash]) => typeof hash === 'string'),
          ) as Record<string, string>
    return new ToolPins(file, pins, write)
  }

  /** Why `tool` must be approved again, or undefined: it was never run, or is unchanged since. */
  changed(server: string, tool: Tool): string | undefined {
    const pinned = this.pins[server]?.[tool.name]
    if (pinned === undefined || pinned === definitionHash(tool)) return undefined
    return `MCP server "${server}" changed the description or input schema of ${tool.name} since you last let it run; review it with hanzo-dev mcp tools ${server}, and approve it with hanzo-dev mcp tools ${server} --approve`
  }

  async pin(server: string, tool: Tool): Promise<void> {
    const hash = definitionHash(tool)
    if (this.pins[server]?.[tool.name] === hash) return
    this.pins[server] = {...this.pins[server], [tool.name]: hash}
    const {mkdir} = await import('node:fs/promises')
    await mkdir(join(this.file, '..'), {mode: 0o700, recursive: true})
    await this.write(this.file, `${JSON.stringify(this.pins, null, 2)}\n`, {mode: 0o600})
  }
}

/** A listed tool is never changed in place (a new listing brings new objects): its hash is computed once. */
const hashes = new WeakMap<object, string>()

export function definitionHash(
  tool: Pick<Tool, 'description' | 'inputSchema' | 'outputSchema' | 'annotations'>,
): string {
  let hash = hashes.get(tool)
  if (hash === undefined) {
    hash = hashOf(tool)
    hashes.set(tool, hash)
  }

  return hash
}

function hashOf(tool: Pick<Tool, 'description' | 'inputSchema' | 'outputSchema' | 'annotations'>): string {
  const shown = {
    annotations: tool.annotations ?? null,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema ?? null,
  }
  return createHash('sha256').update(canonicalJson(shown)).digest('hex')
}

/** JSON with object keys sorted: the same definition hashes the same whatever order a server sends. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v)).join(',')}]`
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`
  return JSON.stringify(value) ?? 'null'
}
