#!/usr/bin/env node
// A minimal client of `hanzo-dev app-server` (docs/app-server.md): starts the server over stdio,
// opens a session in this directory, runs one turn and streams the answer; each permission
// request is asked here (y: allow, a: allow for the session, anything else: deny).
//   node examples/app-server-client.mjs "what is in this repository?" [-- app-server flags]
import {spawn} from 'node:child_process'
import {dirname, join} from 'node:path'
import {createInterface} from 'node:readline'
import {fileURLToPath} from 'node:url'

const [task = 'what is in this repository?', ...rest] = process.argv.slice(2)
const serverArgs = rest[0] === '--' ? rest.slice(1) : rest
const bin = process.env.HANZO_DEV_BIN ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'run.js')
const server = spawn(process.execPath, [bin, 'app-server', ...serverArgs], {stdio: ['pipe', 'pipe', 'inherit']})
const terminal = createInterface({input: process.stdin})
const answers = terminal[Symbol.asyncIterator]()
const send = (message) => server.stdin.write(`${JSON.stringify({jsonrpc: '2.0', ...message})}\n`)
const waiting = new Map()
let nextId = 1
const call = (method, params) =>
  new Promise((resolve, reject) => {
    waiting.set(nextId, (m) => (m.error ? reject(new Error(`${method}: ${m.error.message}`)) : resolve(m.result)))
    send({id: nextId++, method, params})
  })

createInterface({input: server.stdout}).on('line', async (line) => {
  const message = JSON.parse(line)
  if (waiting.has(message.id)) return waiting.get(message.id)(message)
  const {method, params} = message
  if (method === 'item/delta') process.stdout.write(params.text)
  if (method === 'item/started' && params.item.type === 'tool_call')
    process.stdout.write(`\n[${params.item.name} ${params.item.title}]\n`)
  if (method === 'error') console.error(`\nerror: ${params.message}`)
  if (method === 'permission/request') {
    process.stdout.write(`\nAllow ${params.toolName} ${params.title ?? JSON.stringify(params.input)}? [y/a/N] `)
    const answer = ((await answers.next()).value ?? '').trim().toLowerCase()
    const decision = answer === 'y' ? 'allow' : answer === 'a' ? 'allow_session' : 'deny'
    send({id: message.id, result: {decision, ...(decision === 'deny' && {reason: 'the user said no'})}})
  }

  if (method === 'turn/completed') {
    console.log(`\n(${params.stopReason}, ${params.usage.inputTokens} tokens in, ${params.usage.outputTokens} out)`)
    terminal.close()
    server.stdin.end()
  }
})

await call('initialize', {clientInfo: {name: 'example', version: '1'}})
const session = await call('session/start', {cwd: process.cwd()})
console.log(`session ${session.sessionId} · ${session.model}`)
await call('turn/start', {input: task, sessionId: session.sessionId})
