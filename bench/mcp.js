#!/usr/bin/env node
// [mcp]'s benchmark. 1) Sequential `echo` calls to server-everything over stdio and over
// streamable HTTP, through our layer (the session's tool definition: McpServers, McpConnection,
// result conversion) and through the bare SDK Client, in interleaved blocks: p50/p99 and the
// ratio. 2) Five servers started in parallel (connect + tools/list) against the slowest of them
// started alone, ours and the bare SDK's: five stdio servers (their start is CPU the machine's
// cores share), five running remote servers over streamable HTTP, and five that wait before they
// answer initialize (a start that is latency: what it measures is the client's concurrency).
// A report, not a test: exits 0 when a target is missed, 1 only when a contender fails.
// Usage: node bench/mcp.js [--calls N] [--block N] [--starts N] [--json]   (npm run build first)
import {spawn} from 'node:child_process'
import {existsSync, mkdtempSync, rmSync} from 'node:fs'
import {createServer} from 'node:net'
import {cpus, loadavg, tmpdir} from 'node:os'
import {join} from 'node:path'
import {parseArgs} from 'node:util'

import {Client} from '@modelcontextprotocol/sdk/client/index.js'
import {StdioClientTransport} from '@modelcontextprotocol/sdk/client/stdio.js'
import {StreamableHTTPClientTransport} from '@modelcontextprotocol/sdk/client/streamableHttp.js'

import {quantile} from './measure.js'

const root = join(import.meta.dirname, '..')
const mcpDist = join(root, 'plugins', 'mcp', 'dist', 'session-servers.js')
if (!existsSync(mcpDist) || !existsSync(join(root, 'dist', 'index.js'))) {
  console.error('bench: build first (npm run build): plugins/mcp/dist or dist/index.js is missing')
  process.exit(1)
}

const {openSessionServers} = await import(mcpDist)
const library = await import(join(root, 'dist', 'index.js'))

const {values: opts} = parseArgs({
  options: {
    block: {default: '100', type: 'string'},
    calls: {default: '1000', type: 'string'},
    json: {type: 'boolean'},
    starts: {default: '5', type: 'string'},
  },
})
const CALLS = Number(opts.calls)
const BLOCK = Number(opts.block)
const STARTS = Number(opts.starts)
const EVERYTHING = join(root, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js')
const FILESYSTEM = join(root, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js')
const dataDir = mkdtempSync(join(tmpdir(), 'hanzo-bench-mcp-'))
const context = {cwd: dataDir, sessionId: 'bench', signal: new AbortController().signal}
const cleanups = []

const stdioEntry = (name, args = [EVERYTHING, 'stdio']) => ({
  disabled: false,
  name,
  transport: {args, command: process.execPath, type: 'stdio'},
})
const httpEntry = (name, url) => ({disabled: false, name, transport: {type: 'http', url: new URL(url)}})

async function oursOpen(entries) {
  const servers = await openSessionServers(entries, {
    cwd: dataDir,
    dataDir,
    env: process.env,
    library,
    settings: {},
    warn: (m) => console.error(`warning: ${m}`),
  })
  await servers.start()
  return servers
}

async function oursEcho(entry) {
  const servers = await oursOpen([entry])
  cleanups.push(() => servers.close())
  const echo = servers.tools().find((t) => t.name.endsWith('echo'))
  if (!echo) throw new Error(`${entry.name}: no echo tool`)
  return async (message) => {
    const result = await echo.execute({message}, context)
    if (result.is_error || !result.output.includes(message)) throw new Error(`ours: echo answered ${result.output}`)
  }
}

async function bareConnect(entry) {
  const client = new Client({name: 'bench', version: '0'}, {capabilities: {}})
  const {transport} = entry
  await client.connect(
    transport.type === 'stdio'
      ? new StdioClientTransport({args: transport.args, command: transport.command, stderr: 'ignore'})
      : new StreamableHTTPClientTransport(transport.url),
  )
  await client.listTools()
  return client
}

async function bareEcho(entry) {
  const client = await bareConnect(entry)
  cleanups.push(() => client.close())
  return async (message) => {
    const result = await client.callTool({arguments: {message}, name: 'echo'})
    if (!JSON.stringify(result.content).includes(message))
      throw new Error(`bare: echo answered ${JSON.stringify(result)}`)
  }
}

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address()
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

async function httpEverything() {
  const port = await freePort()
  const child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], {
    env: {...process.env, PORT: String(port)},
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  cleanups.push(() => child.kill('SIGKILL'))
  await new Promise((resolve, reject) => {
    let seen = ''
    child.stderr.on('data', (chunk) => {
      seen += chunk.toString()
      if (/listening|running/i.test(seen)) resolve()
    })
    child.once('exit', (code) => reject(new Error(`server-everything streamableHttp exited ${code}: ${seen}`)))
  })
  return `http://127.0.0.1:${port}/mcp`
}

/** Blocks of BLOCK calls, ours then bare, the order swapped every round. */
async function calls(ours, bare) {
  const samples = {bare: [], ours: []}
  for (let i = 0; i < 50; i++) await Promise.all([ours(`w${i}`), bare(`w${i}`)])
  for (let round = 0; round * BLOCK < CALLS; round++) {
    for (const side of round % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours']) {
      const call = side === 'ours' ? ours : bare
      for (let i = 0; i < BLOCK; i++) {
        const started = performance.now()
        await call(`m${round}-${i}`)
        samples[side].push(performance.now() - started)
      }
    }
  }

  return samples
}

const FIVE_STDIO = () => [
  stdioEntry('e1'),
  stdioEntry('e2'),
  stdioEntry('e3'),
  stdioEntry('f1', [FILESYSTEM, dataDir]),
  stdioEntry('f2', [FILESYSTEM, dataDir]),
]

/** Servers that wait before they answer initialize (400 to 800 ms): their start is latency, not CPU. */
const LATE = join(import.meta.dirname, 'fixtures', 'late-server.mjs')
const FIVE_LATE = () => [400, 500, 600, 700, 800].map((ms) => stdioEntry(`late${ms}`, [LATE, String(ms)]))

async function timed(work) {
  const started = performance.now()
  const done = await work()
  const ms = performance.now() - started
  return {done, ms}
}

/** Each of the five alone, then all five at once, STARTS rounds; ours and bare interleaved. */
async function starts(FIVE) {
  const out = {bare: {alone: [], parallel: []}, ours: {alone: [], parallel: []}}
  const open = {
    bare: async (entries) => Promise.all(entries.map((e) => bareConnect(e))),
    ours: async (entries) => [await oursOpen(entries)],
  }
  for (let round = 0; round < STARTS + 1; round++) {
    for (const side of round % 2 === 0 ? ['ours', 'bare'] : ['bare', 'ours']) {
      const alone = []
      for (const entry of FIVE()) {
        const {done, ms} = await timed(() => open[side]([entry]))
        alone.push(ms)
        await Promise.all(done.map((c) => c.close()))
      }

      const {done, ms} = await timed(() => open[side](FIVE()))
      if (side === 'ours' && done[0].tools().length === 0) throw new Error('ours: the five servers offered no tools')
      await Promise.all(done.map((c) => c.close()))
      // The first round warms the disk cache and the module loader: not counted.
      if (round === 0) continue
      out[side].alone.push(Math.max(...alone))
      out[side].parallel.push(ms)
    }
  }

  return out
}

const stats = (list) => {
  const sorted = [...list].sort((a, b) => a - b)
  return {n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99)}
}

try {
  const stdio = await calls(await oursEcho(stdioEntry('everything')), await bareEcho(stdioEntry('everything')))
  const url = await httpEverything()
  const http = await calls(await oursEcho(httpEntry('everything', url)), await bareEcho(httpEntry('everything', url)))
  const start = await starts(FIVE_STDIO)
  // Five remote servers, already running: starting them is connecting (initialize, tools/list),
  // work that waits on the servers, as with real remote servers, not CPU the client must share.
  const urls = [url, ...(await Promise.all([1, 2, 3, 4].map(() => httpEverything())))]
  const startHttp = await starts(() => urls.map((u, i) => httpEntry(`h${i + 1}`, u)))
  const startLate = await starts(FIVE_LATE)
  report({http, start, startHttp, startLate, stdio})
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch(() => undefined)
  rmSync(dataDir, {force: true, recursive: true})
}

function report({http, start, startHttp, startLate, stdio}) {
  const median = (list) =>
    quantile(
      [...list].sort((a, b) => a - b),
      0.5,
    )
  const rows = [
    ['stdio', stdio],
    ['streamable HTTP', http],
  ].map(([name, s]) => ({bare: stats(s.bare), name, ours: stats(s.ours)}))
  const startRows = (of) =>
    ['ours', 'bare'].map((side) => ({alone: median(of[side].alone), parallel: median(of[side].parallel), side}))
  const stdioStarts = startRows(start)
  const httpStarts = startRows(startHttp)
  const lateStarts = startRows(startLate)
  const targets = [
    ...rows.map((r) => ({
      limit: 1.1,
      name: `echo over ${r.name}: ours / bare SDK (p50)`,
      value: r.ours.p50 / r.bare.p50,
    })),
    {
      limit: 1.3,
      name: 'five servers that wait to start, in parallel / the slowest alone (ours)',
      value: lateStarts[0].parallel / lateStarts[0].alone,
    },
  ]
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node.js ${process.version}, load average (1 min) ${loadavg()[0].toFixed(2)}`
  if (opts.json) {
    console.log(
      JSON.stringify(
        {
          calls: rows,
          date: new Date().toISOString(),
          machine,
          starts: {http: httpStarts, late: lateStarts, stdio: stdioStarts},
          targets,
        },
        null,
        2,
      ),
    )
    return
  }

  const f = (n) => n.toFixed(3)
  console.log(`${new Date().toISOString()}  ${machine}`)
  console.log(
    `server-everything's echo, ${CALLS} sequential calls per contender and transport in blocks of ${BLOCK}, interleaved, after 50 warm-up calls.\n`,
  )
  console.log('| transport | ours p50 ms | ours p99 ms | bare SDK p50 ms | bare SDK p99 ms | p50 ratio |')
  console.log('|---|---:|---:|---:|---:|---:|')
  for (const r of rows)
    console.log(
      `| ${r.name} | ${f(r.ours.p50)} | ${f(r.ours.p99)} | ${f(r.bare.p50)} | ${f(r.bare.p99)} | ${(r.ours.p50 / r.bare.p50).toFixed(2)}x |`,
    )
  const startTable = (title, list) => {
    console.log(`\n${title}; median of ${STARTS} rounds after one warm-up.\n`)
    console.log('| client | slowest alone ms | five in parallel ms | ratio |')
    console.log('|---|---:|---:|---:|')
    for (const r of list)
      console.log(
        `| ${r.side === 'ours' ? 'ours (McpServers.start)' : 'bare SDK (Promise.all of Clients)'} | ${r.alone.toFixed(1)} | ${r.parallel.toFixed(1)} | ${(r.parallel / r.alone).toFixed(2)}x |`,
      )
  }

  startTable('Start-up (connect + tools/list) of 3 server-everything + 2 server-filesystem over stdio', stdioStarts)
  startTable('Start-up (connect + tools/list) of 5 running server-everything over streamable HTTP', httpStarts)
  startTable(
    'Start-up (connect + tools/list) of 5 stdio servers that answer initialize after 400-800 ms (bench/fixtures/late-server.mjs)',
    lateStarts,
  )
  console.log(
    `\nThe first two tables have no target: with fewer cores (${cpus().length}) than servers, starts that need CPU (server-everything's) cannot overlap, and their ratio is bound by the cores for any client (compare ours with the bare SDK's). The third measures the client's concurrency.`,
  )
  console.log('\n| target | measured | limit | result |')
  console.log('|---|---:|---:|---|')
  for (const t of targets)
    console.log(`| ${t.name} | ${t.value.toFixed(2)}x | ${t.limit}x | ${t.value <= t.limit ? 'pass' : 'FAIL'} |`)
}
