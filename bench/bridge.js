#!/usr/bin/env node
// [bridge]'s benchmark: JSON-RPC `initialize` round trips, in the same run: directly to the built
// `hanzo-dev app-server --listen` (POST /rpc on a keep-alive agent, as the bridge itself talks to
// it), through `hanzo-dev bridge --app` in front of it (a ws client with a JWT from a JWKS on
// 127.0.0.1), and through `hanzo-dev bridge` with the app server in its own process. 1) latency: sequential calls in interleaved blocks, p50/p99 and the ratio; 2)
// throughput: messages/s with a window of requests in flight.
// A report, not a test: exits 0 when a target is missed, 1 only when a contender fails.
// Usage: node bench/bridge.js [--calls N] [--block N] [--burst N] [--window N] [--json]   (npm run build first)
import {spawn} from 'node:child_process'
import {existsSync} from 'node:fs'
import {Agent, createServer, request} from 'node:http'
import {cpus, loadavg} from 'node:os'
import {join} from 'node:path'
import {createInterface} from 'node:readline'
import {parseArgs} from 'node:util'

import {exportJWK, generateKeyPair, SignJWT} from 'jose'
import WebSocket from 'ws'

import {makeBenchHome} from './bench-home.js'
import {quantile} from './measure.js'

const root = join(import.meta.dirname, '..')
const CLI = join(root, 'bin', 'run.js')
if (
  !existsSync(join(root, 'dist', 'commands', 'bridge.js')) ||
  !existsSync(join(root, 'dist', 'commands', 'app-server.js'))
) {
  console.error('bench: build first (npm run build): dist/commands/bridge.js or app-server.js is missing')
  process.exit(1)
}

const {values: opts} = parseArgs({
  options: {
    block: {default: '100', type: 'string'},
    burst: {default: '2000', type: 'string'},
    calls: {default: '1000', type: 'string'},
    json: {type: 'boolean'},
    window: {default: '16', type: 'string'},
  },
})
const CALLS = Number(opts.calls)
const BLOCK = Number(opts.block)
const BURST = Number(opts.burst)
const WINDOW = Number(opts.window)
const ORIGIN = 'https://chat.hanzo.ai'
const OWNER = 'bench'
const home = makeBenchHome()
const cleanups = []

/** A built-CLI server; resolves with the JSON line it prints on start. */
async function startServer(args, env = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: home.home,
    env: {...home.env, ...env},
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  cleanups.push(() => child.kill('SIGTERM'))
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk.toString()))
  const line = await new Promise((resolve, reject) => {
    createInterface({input: child.stdout}).once('line', resolve)
    child.once('exit', (code) => reject(new Error(`${args[0]} exited ${code}: ${stderr}`)))
  })
  return JSON.parse(line)
}

/** A JWKS on 127.0.0.1 and a token signed by its key, as Hanzo IAM would issue. */
async function jwks() {
  const {privateKey, publicKey} = await generateKeyPair('ES256')
  const body = JSON.stringify({keys: [{...(await exportJWK(publicKey)), alg: 'ES256', kid: 'bench'}]})
  const server = createServer((_req, res) => res.writeHead(200, {'content-type': 'application/json'}).end(body))
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  cleanups.push(() => server.close())
  const token = await new SignJWT({owner: OWNER})
    .setProtectedHeader({alg: 'ES256', kid: 'bench'})
    .setExpirationTime('1h')
    .sign(privateKey)
  return {token, url: `http://127.0.0.1:${server.address().port}/jwks`}
}

/** Direct: GET /events for the connection id, then each message one POST /rpc. */
async function direct(app) {
  const agent = new Agent({keepAlive: true})
  cleanups.push(() => agent.destroy())
  const auth = {authorization: `Bearer ${app.token}`, 'hanzo-owner': OWNER}
  const connectionId = await new Promise((resolve, reject) => {
    const req = request(new URL('/events', app.url), {agent: new Agent(), headers: auth}, (res) => {
      let seen = ''
      res.on('data', (chunk) => {
        seen += chunk.toString()
        const found = /"connectionId":"([^"]+)"/.exec(seen)
        if (found) resolve(found[1])
      })
    })
    req.on('error', reject)
    req.end()
    cleanups.push(() => req.destroy())
  })
  const headers = {...auth, 'content-type': 'application/json', 'hanzo-connection': connectionId}
  return (id) =>
    new Promise((resolve, reject) => {
      const req = request(new URL('/rpc', app.url), {agent, headers, method: 'POST'}, (res) => {
        let body = ''
        res.on('data', (chunk) => (body += chunk))
        res.on('end', () => (JSON.parse(body).id === id ? resolve() : reject(new Error(`direct: answered ${body}`))))
      })
      req.on('error', reject)
      req.end(message(id))
    })
}

/** Through the bridge: one ws, each message a text frame, answers matched by id. */
async function bridged(url, token) {
  const ws = new WebSocket(url, ['bearer', token], {headers: {Origin: ORIGIN}})
  cleanups.push(() => ws.terminate())
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  const waiting = new Map()
  ws.on('message', (data) => {
    const answer = JSON.parse(data.toString())
    waiting.get(answer.id)?.()
    waiting.delete(answer.id)
  })
  ws.once('close', (code) => {
    for (const done of waiting.values()) done(new Error(`bridge closed ${code}`))
  })
  return (id) =>
    new Promise((resolve, reject) => {
      waiting.set(id, (error) => (error ? reject(error) : resolve()))
      ws.send(message(id))
    })
}

const message = (id) =>
  JSON.stringify({id, jsonrpc: '2.0', method: 'initialize', params: {clientInfo: {name: 'bench', version: '0'}}})

/** Blocks of BLOCK sequential calls per path, the order rotated every round. */
async function latency(sides) {
  const names = Object.keys(sides)
  const samples = Object.fromEntries(names.map((name) => [name, []]))
  let id = 0
  for (let i = 0; i < 50; i++) await Promise.all(names.map((name) => sides[name](++id)))
  for (let round = 0; round * BLOCK < CALLS; round++) {
    for (const side of names.map((_, i) => names[(i + round) % names.length])) {
      for (let i = 0; i < BLOCK; i++) {
        const started = performance.now()
        await sides[side](++id)
        samples[side].push(performance.now() - started)
      }
    }
  }

  return samples
}

/** BURST messages with WINDOW in flight at a time: messages per second. */
async function throughput(call, firstId) {
  let next = firstId
  const last = firstId + BURST
  const started = performance.now()
  const lane = async () => {
    while (next < last) await call(next++)
  }

  await Promise.all(Array.from({length: WINDOW}, lane))
  return BURST / ((performance.now() - started) / 1000)
}

try {
  const issuer = await jwks()
  const app = await startServer(['app-server', '--listen', '127.0.0.1:0'])
  const bridgeInfo = await startServer(
    ['bridge', '--listen', '127.0.0.1:0', '--app', app.url, '--allow-origin', ORIGIN, '--jwks', issuer.url],
    {HANZO_APP_SERVER_TOKEN: app.token},
  )
  const localInfo = await startServer([
    'bridge',
    '--listen',
    '127.0.0.1:0',
    '--allow-origin',
    ORIGIN,
    '--jwks',
    issuer.url,
  ])
  const sides = {
    bridge: await bridged(bridgeInfo.url, issuer.token),
    direct: await direct(app),
    local: await bridged(localInfo.url, issuer.token),
  }
  const lat = await latency(sides)
  const rate = {
    bridge: await throughput(sides.bridge, 1e6),
    direct: await throughput(sides.direct, 2e6),
    local: await throughput(sides.local, 3e6),
  }
  report(lat, rate)
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  for (const cleanup of cleanups) await Promise.resolve(cleanup()).catch(() => undefined)
  home.cleanup()
}

function report(lat, rate) {
  const stats = (list) => {
    const sorted = [...list].sort((a, b) => a - b)
    return {n: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99)}
  }

  const bridge = stats(lat.bridge)
  const directStats = stats(lat.direct)
  const local = stats(lat.local)
  const targets = [
    {
      limit: 1.2,
      name: 'initialize round trip: bridge, app server in its process / direct (p50)',
      value: local.p50 / directStats.p50,
    },
    {
      limit: 1.2,
      name: 'initialize round trip: bridge --app (a second process) / direct (p50)',
      value: bridge.p50 / directStats.p50,
    },
  ]
  const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, Node.js ${process.version}, load average (1 min) ${loadavg()[0].toFixed(2)}`
  if (opts.json) {
    console.log(
      JSON.stringify(
        {
          date: new Date().toISOString(),
          latency: {bridge, direct: directStats, local},
          machine,
          messagesPerSecond: rate,
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
    `JSON-RPC initialize to hanzo-dev app-server --listen: ${CALLS} sequential calls per path in blocks of ${BLOCK}, interleaved, after 50 warm-up calls; then ${BURST} messages with ${WINDOW} in flight.\n`,
  )
  console.log('| path | p50 ms | p99 ms | messages/s |')
  console.log('|---|---:|---:|---:|')
  console.log(
    `| direct (POST /rpc, keep-alive) | ${f(directStats.p50)} | ${f(directStats.p99)} | ${rate.direct.toFixed(0)} |`,
  )
  console.log(
    `| through the bridge, app server in its process (ws + JWT) | ${f(local.p50)} | ${f(local.p99)} | ${rate.local.toFixed(0)} |`,
  )
  console.log(
    `| through the bridge --app, app server in a second process (ws + JWT + POST /rpc) | ${f(bridge.p50)} | ${f(bridge.p99)} | ${rate.bridge.toFixed(0)} |`,
  )
  console.log('\n| target | measured | limit | result |')
  console.log('|---|---:|---:|---|')
  for (const t of targets)
    console.log(`| ${t.name} | ${t.value.toFixed(2)}x | ${t.limit}x | ${t.value <= t.limit ? 'pass' : 'FAIL'} |`)
}
