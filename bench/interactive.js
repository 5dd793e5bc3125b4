#!/usr/bin/env node
// The interactive session (issue 19), on a real pseudo-terminal (util-linux `script`), with the
// scripted model (`--fake-model`), in a temp HOME:
// - launch to a ready prompt: from spawning `hanzo-dev chat` until the prompt and its status
//   line are on the terminal, against `hanzo-dev --help` (spawn to exit) on the same terminal,
//   interleaved;
// - keystroke to screen: from a key written to the terminal until the prompt line shows it, with
//   nothing running, while a reply streams, and `cat` echoing on the same terminal (the floor);
// - markdown throughput on 1 MB: bench/markdown.js's cases (MdRenderer against marked and
//   marked + marked-terminal).
// A report, not a test: read the ratios. Usage: node bench/interactive.js [--runs N] [--keys N] [--no-markdown]
import {spawn} from 'node:child_process'
import {existsSync, writeFileSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {join} from 'node:path'
import {parseArgs, stripVTControlCharacters} from 'node:util'

import {makeBenchHome} from './bench-home.js'
import {quantile} from './measure.js'

const root = join(import.meta.dirname, '..')
const cli = join(root, 'bin', 'run.js')
if (!existsSync(join(root, 'dist', 'ui', 'chat-session.js'))) {
  console.error('bench: build first (npm run build): dist/ui is missing')
  process.exit(1)
}

const {values: opts} = parseArgs({
  options: {
    keys: {default: '40', type: 'string'},
    'no-markdown': {type: 'boolean'},
    runs: {default: '8', type: 'string'},
  },
})
const RUNS = Math.max(1, Number(opts.runs) || 8)
const KEYS = Math.max(1, Math.min(60, Number(opts.keys) || 40))
const TIMEOUT_MS = 20_000

const box = makeBenchHome()
const env = {...box.env, LANG: 'C.UTF-8', TERM: 'xterm-256color'}
// A reply of ~4,000 characters in 6-character deltas 5 ms apart streams for about 3.5 s: long
// enough to type every key into it.
const paragraph =
  'The loop reads the file, plans the change and writes it back; **tests** run after each step, and `src/core` stays pure.\n\n'
const reply = `${paragraph.repeat(34)}Done streaming.`
const model = join(box.home, 'model.json')
writeFileSync(model, JSON.stringify({model: 'bench-model', turns: [{chunk_size: 6, delay_ms: 5, text: reply}]}))

/**
 * Runs `command` on a new 100x30 pseudo-terminal: `script` gives it a terminal, `stty` its size.
 * Every chunk the terminal sends back is kept with its time (performance.now()).
 */
function onTerminal(command) {
  const quote = (s) => `'${s.replaceAll("'", `'\\''`)}'`
  const started = performance.now()
  const child = spawn('script', ['-qefc', `stty cols 100 rows 30; exec ${command.map(quote).join(' ')}`, '/dev/null'], {
    cwd: box.home,
    env,
    stdio: ['pipe', 'pipe', 'ignore'],
  })
  const run = {
    child,
    closed: new Promise((resolve) => child.on('close', () => resolve(performance.now()))),
    raw: '',
    started,
    /** Resolves with the time the output after `from` first shows `text` (escape sequences removed). */
    until(text, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!stripVTControlCharacters(run.raw.slice(from)).includes(text)) return false
          child.stdout.off('data', onData)
          clearTimeout(timer)
          resolve(performance.now())
          return true
        }

        const onData = () => check()
        const timer = setTimeout(() => {
          child.stdout.off('data', onData)
          reject(
            new Error(
              `bench: the terminal did not show ${JSON.stringify(text)} in ${TIMEOUT_MS} ms; it shows:\n${stripVTControlCharacters(run.raw).slice(-2000)}`,
            ),
          )
        }, TIMEOUT_MS)
        child.stdout.on('data', onData)
        check()
      })
    },
  }
  child.stdout.setEncoding('utf8').on('data', (chunk) => (run.raw += chunk))
  children.add(child)
  child.on('close', () => children.delete(child))
  return run
}

const chatCommand = [process.execPath, cli, 'chat', '--fake-model', model]
// The end of the status line, drawn with the prompt above it: from then on the prompt takes keys
// (a prompt sent while the session still opens waits for it).
const READY = ' · /help'
const children = new Set()

/** Waits for the session to end (Ctrl-D was typed); kills it after 5 s. */
async function ended(run) {
  const timer = setTimeout(() => run.child.kill(), 5000)
  await run.closed
  clearTimeout(timer)
}

async function launchToPrompt() {
  const run = onTerminal(chatCommand)
  const ready = await run.until(READY)
  run.child.stdin.write('\u0004')
  await ended(run)
  return ready - run.started
}

async function helpToExit() {
  const run = onTerminal([process.execPath, cli, '--help'])
  return (await run.closed) - run.started
}

/** Types KEYS letters one at a time into `run`: for each, the ms until the output after it shows `shows(letters so far, letter)`. */
async function typeAndTime(run, shows, stillValid = () => true) {
  const samples = []
  let typed = ''
  for (let i = 0; i < KEYS; i++) {
    const key = String.fromCodePoint(97 + (i % 26))
    typed += key
    const from = run.raw.length
    const sent = performance.now()
    run.child.stdin.write(key)
    const shown = await run.until(shows(typed, key), from)
    if (stillValid()) samples.push(shown - sent)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }

  return samples
}

const prompt = (typed) => `› ${typed}`

async function keystrokes() {
  // The floor: the same terminal with `cat` echoing each key back as soon as it is read.
  const floorRun = onTerminal(['sh', '-c', 'stty raw -echo; exec cat'])
  await new Promise((resolve) => setTimeout(resolve, 300))
  const floor = await typeAndTime(floorRun, (_, key) => key)
  floorRun.child.kill()

  const run = onTerminal(chatCommand)
  await run.until(READY)
  const idle = await typeAndTime(run, prompt)
  run.child.stdin.write('\u0003')
  const from = run.raw.length
  run.child.stdin.write('go\r')
  const began = await run.until('The loop reads', from)
  let streaming = true
  const done = run.until('Done streaming.', from).finally(() => (streaming = false))
  const during = await typeAndTime(run, prompt, () => streaming)
  if (!streaming)
    console.error(`bench: the reply ended while typing: ${during.length} of ${KEYS} keys timed while it streamed`)
  const streamed = (await done) - began
  // Ctrl-C clears the typed letters (with a turn running it would interrupt it), Ctrl-D exits.
  run.child.stdin.write('\u0003\u0004')
  await ended(run)
  return {during, floor, idle, streamed}
}

const sorted = (samples) => [...samples].sort((a, b) => a - b)

/** Prints `title`, then a markdown table (the first column left-aligned, the others right). */
function table(title, head, rows) {
  if (title) console.log(`\n${title}`)
  console.log(
    [
      '',
      `| ${head.join(' | ')} |`,
      `|---|${head
        .slice(1)
        .map(() => '---:|')
        .join('')}`,
      ...rows.map((row) => `| ${row.join(' | ')} |`),
    ].join('\n'),
  )
}

const fmt = (n) => n.toFixed(1)
const loadBefore = loadavg()[0]
const launch = {chat: [], help: []}
try {
  // Interleaved, one warm-up round: a machine that gets busier part-way shifts both alike.
  for (let round = 0; round <= RUNS; round++) {
    const order = round % 2 === 0 ? ['help', 'chat'] : ['chat', 'help']
    for (const which of order) {
      const ms = which === 'chat' ? await launchToPrompt() : await helpToExit()
      if (round > 0) launch[which].push(ms)
    }

    process.stderr.write(`\rlaunch round ${round + 1}/${RUNS + 1}`)
  }

  process.stderr.write('\n')
  const keys = await keystrokes()
  const loadAfter = loadavg()[0]

  const help = quantile(sorted(launch.help), 0.5)
  const chat = quantile(sorted(launch.chat), 0.5)
  const cpu = cpus()
  console.log(
    `Run: ${new Date().toISOString()}, ${cpu[0]?.model ?? 'unknown CPU'} x${cpu.length}, Node.js ${process.version}. Load average (1 min) ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after.`,
  )
  table(
    `Launch (${RUNS} runs each after one warm-up round, interleaved, on a 100x30 pseudo-terminal):`,
    ['command', 'median ms', 'IQR ms', 'vs --help'],
    [
      ['hanzo-dev --help (spawn to exit)', launch.help],
      ['hanzo-dev chat --fake-model (spawn to the prompt and status line on screen)', launch.chat],
    ].map(([name, samples]) => {
      const s = sorted(samples)
      return [
        name,
        fmt(quantile(s, 0.5)),
        `${fmt(quantile(s, 0.25))}–${fmt(quantile(s, 0.75))}`,
        `${(quantile(s, 0.5) / help).toFixed(2)}x`,
      ]
    }),
  )
  table(
    `Keystroke to screen (${KEYS} keys typed one at a time, 15 ms apart after each shows):`,
    ['case', 'keys', 'p50 ms', 'p90 ms', 'max ms'],
    [
      ['`cat` on the same terminal (the floor)', keys.floor],
      ['the prompt, nothing running', keys.idle],
      [`the prompt while a reply streams (${reply.length} characters in ${fmt(keys.streamed)} ms)`, keys.during],
    ].map(([name, samples]) => {
      const s = sorted(samples)
      return [name, String(s.length), fmt(quantile(s, 0.5)), fmt(quantile(s, 0.9)), fmt(s.at(-1))]
    }),
  )

  const targets = [
    ['launch to a ready prompt / `--help`', `${(chat / help).toFixed(2)}x`, '<= 1.5x', chat / help <= 1.5],
  ]
  if (!opts['no-markdown']) {
    // bench/markdown.js's own cases, on the issue's 1 MB document.
    const {markdownTable, measureMarkdown} = await import('./markdown.js')
    const rows = measureMarkdown({kb: 1024, naive: false, runs: 3})
    console.log('\nMarkdown on 1 MB (bench/markdown.js, medians of 3 runs after one warm-up):\n')
    console.log(markdownTable(rows))
    const ratio = rows[3][1] / rows[2][1]
    targets.push([
      'markdown throughput: ours painted / marked + marked-terminal',
      `${ratio.toFixed(2)}x`,
      '>= 1x',
      ratio >= 1,
    ])
  }

  table(
    '',
    ['target', 'measured', 'limit', 'result'],
    targets.map(([name, value, limit, pass]) => [name, value, limit, pass ? 'pass' : 'FAIL']),
  )
} finally {
  for (const child of children) child.kill()
  box.cleanup()
}
