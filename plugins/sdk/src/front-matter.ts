/**
 * The front matter of an agent or command file, parsed strictly: a first line `---`, then `key: value`
 * lines up to a closing `---`, then the body. A value is a plain string (surrounding quotes,
 * single or double, are dropped) or a flow list `[a, b, c]` of plain strings. Blank lines and
 * `#` comment lines are skipped. Anything else (nesting, block lists, multi-line strings) is an
 * error naming the line: a small documented subset, so a file means the same to every reader.
 */
export interface FrontMatter {
  fields: Record<string, string | string[]>
  body: string
}

export class FrontMatterError extends Error {
  constructor(
    message: string,
    /** The 1-based line the problem is on; absent when it is about the whole file. */
    readonly line?: number,
    /** The key the problem is about. */
    readonly field?: string,
  ) {
    super(message)
  }
}

// Hyphens too: command files written for Claude Code say `argument-hint` and `allowed-tools`.
const KEY_LINE = /^([a-z][a-z0-9_-]*)\s*:(.*)$/

export function parseFrontMatter(text: string): FrontMatter {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  if (lines[0]?.trim() !== '---')
    throw new FrontMatterError('it does not start with a front matter block (a first line `---`)', 1)
  const end = lines.findIndex((line, i) => i > 0 && line.trim() === '---')
  if (end === -1) throw new FrontMatterError('its front matter has no closing `---` line')
  const fields: Record<string, string | string[]> = Object.create(null)
  for (let i = 1; i < end; i++) {
    const line = lines[i]
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue
    const match = KEY_LINE.exec(line)
    if (!match) throw new FrontMatterError('expected `key: value` (a lowercase key; no nesting or block lists)', i + 1)
    const [, key, raw] = match
    if (key in fields) throw new FrontMatterError(`\`${key}\` is set twice`, i + 1, key)
    fields[key] = parseValue(raw.trim(), i + 1, key)
  }

  return {
    body: lines
      .slice(end + 1)
      .join('\n')
      .trim(),
    fields,
  }
}

function parseValue(raw: string, line: number, key: string): string | string[] {
  if (raw.startsWith('[')) {
    if (!raw.endsWith(']')) throw new FrontMatterError('a list must close with `]` on the same line', line, key)
    const inner = raw.slice(1, -1).trim()
    return inner === '' ? [] : inner.split(',').map((item) => unquote(item.trim(), line, key))
  }

  return unquote(raw, line, key)
}

function unquote(value: string, line: number, key: string): string {
  const quote = value[0]
  if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) return value.slice(1, -1)
  if (quote === '"' || quote === "'")
    throw new FrontMatterError('a quoted value must end with the same quote', line, key)
  if (/^[[\]{}|>&*!]/.test(value))
    throw new FrontMatterError(
      `\`${value}\` is YAML this parser does not read: write a plain or quoted string`,
      line,
      key,
    )
  return value
}
