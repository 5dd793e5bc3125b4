#!/usr/bin/env node
// Replays test-vectors/vim-keys.json in real Vim and reports every case whose buffer, cursor,
// mode or unnamed register Vim disagrees with: how the vectors were checked, and how to check a
// new one. Cases Vim cannot replay through feedkeys() are skipped (Ex commands, effects, a
// Visual or Command mode or pending operator left open, <S-CR>, a start in Insert mode).
// Needs `vim` on PATH and a build (it reads the key notation from dist/).
// Usage: node scripts/vim-vectors-against-vim.js [case-name...]   (exit 1 on a disagreement)
import {execFileSync} from 'node:child_process'
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

import {parseKeys} from '../dist/core/input/index.js'

const root = join(import.meta.dirname, '..')
const RAW = {
  '<BS>': '\b',
  '<C-c>': '\u0003',
  '<C-j>': '\n',
  '<C-r>': '\u0012',
  '<C-u>': '\u0015',
  '<C-w>': '\u0017',
  '<CR>': '\r',
  '<Del>': '\u0080kD',
  '<Esc>': '\u001B',
  '<Left>': '\u0080kl',
  '<Right>': '\u0080kr',
}
// Typed after the keys: if Vim is still in Insert mode it lands at the cursor, which shows both.
const MARK = '\uE000'

function replayable(c) {
  const e = c.expect
  const effects = ['submitted', 'exit', 'message', 'error', 'options', 'pending', 'commandLine'].some((k) => k in e)
  return (
    !effects &&
    (e.mode === 'normal' || e.mode === 'insert') &&
    !c.mode &&
    !c.keys.includes(':') &&
    parseKeys(c.keys).every((k) => k.length === 1 || k in RAW || [...k].length === 1)
  )
}

function inVim(c, dir) {
  const byte = Buffer.byteLength([...c.buffer].slice(0, c.cursor).join(''))
  writeFileSync(join(dir, 'buffer'), c.buffer + '\n')
  writeFileSync(
    join(dir, 'keys'),
    parseKeys(c.keys)
      .map((k) => RAW[k] ?? k)
      .join(''),
  )
  writeFileSync(join(dir, 'out'), '')
  writeFileSync(
    join(dir, 'script.vim'),
    `set nocompatible encoding=utf-8 noswapfile backspace=indent,eol,start
exe "goto " . ${byte + 1}
call feedkeys(join(readfile('${dir}/keys', 'b'), "\\n") . "${MARK}\\<Esc>", 'tx')
call writefile([json_encode({'lines': getline(1, '$'), 'byte': line2byte(line('.')) + col('.') - 2, 'reg': getreg('"'), 'type': getregtype('"')})], '${dir}/out')
qa!
`,
  )
  try {
    execFileSync(
      'vim',
      ['-u', 'NONE', '-i', 'NONE', '-n', '-N', '-es', '-S', join(dir, 'script.vim'), join(dir, 'buffer')],
      {stdio: 'ignore', timeout: 10_000},
    )
  } catch {
    // -es exits non-zero after a beep (a motion that fails); the output file says what happened.
  }

  const out = JSON.parse(readFileSync(join(dir, 'out'), 'utf8'))
  let text = out.lines.join('\n')
  let cursor = [...Buffer.from(text).subarray(0, Math.max(0, out.byte)).toString()].length
  let mode = 'normal'
  const mark = text.indexOf(MARK)
  if (mark !== -1) {
    mode = 'insert'
    cursor = [...text.slice(0, mark)].length
    text = text.slice(0, mark) + text.slice(mark + 1)
  }

  return {
    buffer: text,
    cursor,
    mode,
    register: out.reg === '' ? undefined : {linewise: out.type === 'V', text: out.reg},
  }
}

const only = new Set(process.argv.slice(2))
const {cases} = JSON.parse(readFileSync(join(root, 'test-vectors', 'vim-keys.json'), 'utf8'))
const dir = mkdtempSync(join(tmpdir(), 'vim-vectors-'))
let checked = 0
let disagreements = 0
try {
  for (const c of cases.filter((c) => (only.size === 0 || only.has(c.name)) && replayable(c))) {
    checked++
    const vim = inVim(c, dir)
    const {buffer, cursor, mode, register} = c.expect
    if (
      JSON.stringify(vim) !==
      JSON.stringify({buffer, cursor, mode, register: register && {linewise: register.linewise, text: register.text}})
    ) {
      disagreements++
      console.log(
        `${c.name}: vector ${JSON.stringify({buffer, cursor, mode, register})}\n${' '.repeat(c.name.length)}     vim ${JSON.stringify(vim)}`,
      )
    }
  }
} finally {
  rmSync(dir, {force: true, recursive: true})
}

console.log(`${checked} of ${cases.length} cases replayed in Vim, ${disagreements} disagree`)
process.exitCode = disagreements > 0 ? 1 : 0
