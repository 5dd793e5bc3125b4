import hljs from 'highlight.js/lib/core'
import bash from 'highlight.js/lib/languages/bash'
import c from 'highlight.js/lib/languages/c'
import cpp from 'highlight.js/lib/languages/cpp'
import css from 'highlight.js/lib/languages/css'
import diff from 'highlight.js/lib/languages/diff'
import go from 'highlight.js/lib/languages/go'
import java from 'highlight.js/lib/languages/java'
import javascript from 'highlight.js/lib/languages/javascript'
import json from 'highlight.js/lib/languages/json'
import markdown from 'highlight.js/lib/languages/markdown'
import python from 'highlight.js/lib/languages/python'
import rust from 'highlight.js/lib/languages/rust'
import shell from 'highlight.js/lib/languages/shell'
import sql from 'highlight.js/lib/languages/sql'
import typescript from 'highlight.js/lib/languages/typescript'
import xml from 'highlight.js/lib/languages/xml'
import yaml from 'highlight.js/lib/languages/yaml'

import type {StyledSpan} from './types.js'

// The core build with a chosen set instead of highlight.js's full bundle (190 languages, slow
// to load on every CLI start): the languages a coding agent's answers use most — the ones its
// tools edit (TS/JS, Python, Rust, Go, Java, C/C++, CSS, HTML), what it runs (bash, shell
// sessions, SQL) and what it shows (JSON, YAML, diffs, markdown). Anything else prints plain.
const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
}
for (const [name, language] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, language)

/**
 * highlight.js scopes to colour names (chalk's basic 8/16 colours, which every terminal has and
 * themes recolour consistently). Scopes not listed stay the default colour.
 */
const SCOPE_COLORS: Record<string, string> = {
  addition: 'green',
  attr: 'cyan',
  attribute: 'cyan',
  built_in: 'cyan',
  bullet: 'yellow',
  comment: 'gray',
  deletion: 'red',
  doctag: 'gray',
  keyword: 'magenta',
  literal: 'yellow',
  meta: 'gray',
  name: 'blue',
  number: 'yellow',
  params: 'default',
  quote: 'gray',
  regexp: 'red',
  section: 'blue',
  selector: 'magenta',
  string: 'green',
  subst: 'default',
  symbol: 'yellow',
  tag: 'blue',
  title: 'blue',
  type: 'cyan',
  variable: 'red',
}

/** Whether `language` (a fence's info word, aliases included: ts, py, sh, html...) is known. */
export function knownLanguage(language: string): boolean {
  return language !== '' && hljs.getLanguage(language) !== undefined
}

/**
 * A closed (or flushed) fence's code as lines of spans, highlighted in one pass: highlight.js
 * needs the whole block, since a token (a template string, a block comment) may span lines.
 */
export function highlightLines(code: string, language: string): StyledSpan[][] {
  if (!knownLanguage(language))
    return code.split('\n').map((line) => (line ? [{style: {code: true, fence: true}, text: line}] : []))
  const html = hljs.highlight(code, {ignoreIllegals: true, language}).value
  return htmlToLines(html)
}

const ENTITIES: Record<string, string> = {'&#x27;': "'", '&amp;': '&', '&gt;': '>', '&lt;': '<', '&quot;': '"'}
const unescape = (s: string) => s.replaceAll(/&(?:amp|lt|gt|quot|#x27);/g, (e) => ENTITIES[e] ?? e)

/** highlight.js's HTML (nested `<span class="hljs-...">` only) back to coloured spans. */
function htmlToLines(html: string): StyledSpan[][] {
  const lines: StyledSpan[][] = [[]]
  const colors: (string | undefined)[] = []
  const tag = /<span class="([^"]*)">|<\/span>/g
  let at = 0
  const text = (raw: string) => {
    if (!raw) return
    const color = colors.findLast((c) => c !== undefined)
    const parts = unescape(raw).split('\n')
    for (const [index, part] of parts.entries()) {
      if (index > 0) lines.push([])
      if (!part) continue
      const style = color && color !== 'default' ? {code: true, color, fence: true} : {code: true, fence: true}
      const line = lines.at(-1)!
      const last = line.at(-1)
      if (last && last.style?.color === style.color) last.text += part
      else line.push({style, text: part})
    }
  }

  for (const match of html.matchAll(tag)) {
    text(html.slice(at, match.index))
    at = match.index + match[0].length
    if (match[1] === undefined) {
      colors.pop()
    } else {
      // "hljs-title function_": the first scope decides the colour.
      const scope = match[1].split(' ')[0].replace(/^hljs-/, '')
      colors.push(SCOPE_COLORS[scope])
    }
  }

  text(html.slice(at))
  return lines
}
