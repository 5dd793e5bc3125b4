import type {ChalkInstance} from 'chalk'

import {formatValue} from '../core/config/display.js'
import type {SettingKey} from '../core/config/setting-keys.js'

const INDENT = '    '

/**
 * `config keys` as text: per setting, its key with type, default and variable, then what it
 * does and the rules of the tiers. Wrapped at words to `width` on a terminal; piped (no width),
 * each part stays on one line, so grep finds a whole description.
 */
export function renderSettingKeys(keys: readonly SettingKey[], style: ChalkInstance, width?: number): string {
  const blocks = keys.map((k) => {
    const facts = [
      k.type,
      k.default === undefined ? '' : `default ${formatValue(k.default)}`,
      k.env ? `env ${k.env}` : '',
    ].filter(Boolean)
    const [head, ...rest] = wrap(`${k.key}  ${facts.join(', ')}`, '', '  ', width)
    const lines = [style.bold(k.key) + style.dim(head.slice(k.key.length)), ...rest.map((l) => style.dim(l))]
    if (k.description) lines.push(...wrap(k.description, INDENT, INDENT, width))
    for (const rule of k.rules)
      lines.push(
        ...wrap(`→ ${rule}`, INDENT, `${INDENT}  `, width).map((l, i) =>
          i === 0 ? l.replace('→', style.yellow('→')) : l,
        ),
      )
    return lines.join('\n')
  })
  return blocks.join('\n\n')
}

/** Greedy word wrap: the first line starts with `first`, the ones after with `rest`. */
function wrap(text: string, first: string, rest: string, width: number | undefined): string[] {
  if (width === undefined) return [`${first}${text}`]
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line === '') line = `${lines.length === 0 ? first : rest}${word}`
    else if (line.length + 1 + word.length > width) {
      lines.push(line)
      line = `${rest}${word}`
    } else line = `${line} ${word}`
  }

  lines.push(line)
  return lines
}
