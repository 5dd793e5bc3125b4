#!/usr/bin/env node
// Full agent runs per second (issue [agent-loop], item 10): one run is two model requests, the
// first answered with one tool call, the tool run, the second answered with the final text.
// Three contenders against one fake model server in this process: ours (Agent / Runner from the
// built dist/), the peer @openai/agents, and the bare openai client doing the two calls by hand.
// A report, not a test: exits 0 when a target is missed, 1 only when a contender answers wrong.
// Usage: node bench/agent-loop.js [--rounds N] [--runs N] [--only ours|peer|bare|floor] [--json]
import {readFileSync} from 'node:fs'
import {arch, cpus, loadavg, platform} from 'node:os'
import {join} from 'node:path'
import {parseArgs} from 'node:util'
import v8 from 'node:v8'
import vm from 'node:vm'

import * as peerSdk from '@openai/agents'
import OpenAI from 'openai'
import {z} from 'zod'

import {quantile} from './measure.js'

const dist = join(import.meta.dirname, '..', 'dist')
const ours = await import(join(dist, 'index.js')).catch(() => undefined)
if (!ours?.Runner) {
  console.error('bench: build first (npm run build): dist/index.js does not export Runner')
  process.exit(1)
}

const {startFakeModel} = await import(join(dist, 'testing', 'fake-model', 'server.js'))

const {values: opts} = parseArgs({
  options: {json: {type: 'boolean'}, only: {type: 'string'}, rounds: {type: 'string', default: '6'}, runs: {type: 'string', default: '200'}},
})
const ROUNDS = Math.max(1, Number(opts.rounds) || 6)
const RUNS = Math.max(1, Number(opts.runs) || 200)
const WARMUP_RUNS = 100

// A full GC before each block, so no block pays for the garbage of the one before it.
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc')

// Not require.resolve('<name>/package.json'): @openai/agents does not export it.
const version = (name) => JSON.parse(readFileSync(join(import.meta.dirname, '..', 'node_modules', name, 'package.json'), 'utf8')).version

const INSTRUCTIONS = 'You are a weather bot. Answer in one sentence.'
const INPUT = 'weather in Tokyo?'
const ANSWER = 'It is sunny in Tokyo.'
const TOOL_OUTPUT = 'sunny in Tokyo'
const CITY_SCHEMA = {type: 'object', properties: {city: {type: 'string'}}, required: ['city']}
const getWeather = ({city}) => `sunny in ${city}`

// Every run takes exactly two turns, in order, so the script is the same pair repeated. The
// server checks each request (a wrong history gets a 400, which fails the run): every timed run
// is verified at the cost of a few string compares on the server, the same for all contenders.
function script(runs) {
  const turns = []
  for (let i = 0; i < runs; i++) {
    turns.push(
      {expect: {last_user_contains: 'Tokyo', tools_include: ['get_weather']}, tool_calls: [{name: 'get_weather', arguments: {city: 'Tokyo'}}]},
      {expect: {has_tool_result_for: 'get_weather', tool_result_contains: TOOL_OUTPUT}, text: ANSWER},
    )
  }

  return {model: 'fake-model', turns}
}

function contenders(url) {
  const weather = ours.tool({name: 'get_weather', description: 'The weather in a city.', mutating: false, parameters: CITY_SCHEMA, execute: getWeather})
  const agent = new ours.Agent({name: 'bench', instructions: INSTRUCTIONS, model: 'fake-model', tools: [weather]})
  const client = ours.createOpenAIClient({baseURL: url, api: 'chat_completions', maxRetries: 0})

  // Tracing off both ways (global and per runner): it is work we do not do.
  peerSdk.setTracingDisabled(true)
  const openai = new OpenAI({baseURL: url, apiKey: 'x', maxRetries: 0})
  const peerTool = peerSdk.tool({name: 'get_weather', description: 'The weather in a city.', parameters: z.object({city: z.string()}), execute: getWeather})
  const peerAgent = new peerSdk.Agent({name: 'bench', instructions: INSTRUCTIONS, model: 'fake-model', tools: [peerTool]})
  const runner = new peerSdk.Runner({modelProvider: new peerSdk.OpenAIProvider({openAIClient: openai, useResponses: false}), tracingDisabled: true})

  const bareTools = [{type: 'function', function: {name: 'get_weather', description: 'The weather in a city.', parameters: CITY_SCHEMA}}]
  const bareRequest = (messages) => openai.chat.completions.create({model: 'fake-model', messages, tools: bareTools, stream: true, stream_options: {include_usage: true}})
  const body = (messages) => JSON.stringify({model: 'fake-model', messages, stream: true, stream_options: {include_usage: true}})
  const floorBodies = [body([{role: 'user', content: INPUT}]), body([{role: 'user', content: INPUT}, {role: 'tool', tool_call_id: 'x', content: TOOL_OUTPUT}])]

  return {
    ours: async () => (await ours.Runner.run(agent, INPUT, {client})).finalOutput,

    // Streaming, as ours: the same two streamed requests, consumed to the end.
    async peer() {
      const result = await runner.run(peerAgent, INPUT, {stream: true})
      for await (const _event of result);
      await result.completed
      return result.finalOutput
    },

    // What any agent loop must do at the least, with the openai client: stream, gather the
    // call's fragments, run it, send the result, stream the answer.
    async bare() {
      const messages = [{role: 'system', content: INSTRUCTIONS}, {role: 'user', content: INPUT}]
      const calls = []
      for await (const chunk of await bareRequest(messages)) {
        for (const fragment of chunk.choices[0]?.delta?.tool_calls ?? []) {
          const call = (calls[fragment.index] ??= {id: '', name: '', arguments: ''})
          call.id ||= fragment.id ?? ''
          call.name ||= fragment.function?.name ?? ''
          call.arguments += fragment.function?.arguments ?? ''
        }
      }

      messages.push({role: 'assistant', content: null, tool_calls: calls.map(({id, name, arguments: args}) => ({id, type: 'function', function: {name, arguments: args}}))})
      for (const call of calls) messages.push({role: 'tool', tool_call_id: call.id, content: getWeather(JSON.parse(call.arguments))})
      let text = ''
      for await (const chunk of await bareRequest(messages)) text += chunk.choices[0]?.delta?.content ?? ''
      return text
    },

    // Not a contender: two raw fetches whose bodies are read but not parsed. The cost of the
    // server and of HTTP alone, which every contender pays on top of its own work.
    async floor() {
      for (const floorBody of floorBodies) {
        const response = await fetch(`${url}/chat/completions`, {method: 'POST', body: floorBody, headers: {'content-type': 'application/json'}})
        await response.text()
      }

      return ANSWER
    },
  }
}

function fail(message) {
  console.error(`bench/agent-loop: ${message}`)
  process.exit(1)
}

// One run of each contender, untimed, with the server's record read back: two requests, the
// tool offered in the first, the call's result (by its id) in the second, the answer as sent.
async function verify(name, run, server) {
  server.requests.length = 0
  let output
  try {
    output = await run()
  } catch (error) {
    fail(`${name}: the run failed: ${error?.message ?? error}`)
  }

  if (output !== ANSWER) fail(`${name}: the final output is ${JSON.stringify(output)}, not ${JSON.stringify(ANSWER)}`)
  if (name === 'floor') return
  const bodies = server.requests.map((r) => r.body)
  if (bodies.length !== 2) fail(`${name}: the server saw ${bodies.length} requests for one run, not 2`)
  const [first, second] = bodies
  if (first.stream !== true || second.stream !== true) fail(`${name}: a request did not ask for a stream`)
  if (!first.tools?.some((t) => t.function?.name === 'get_weather')) fail(`${name}: the first request does not offer get_weather`)
  const callId = second.messages.find((m) => m.role === 'assistant')?.tool_calls?.[0]?.id
  const result = second.messages.find((m) => m.role === 'tool')
  if (!callId || result?.tool_call_id !== callId || result.content !== TOOL_OUTPUT) {
    fail(`${name}: the second request does not carry the tool result for the call: ${JSON.stringify(second.messages)}`)
  }
}

// One block: `runs` sequential runs, timed as a whole. Each run's output is compared (a string
// compare, noise next to two HTTP round trips); the request count is checked after the clock stops.
async function block(name, run, runs, server) {
  gc()
  server.requests.length = 0
  const start = performance.now()
  for (let i = 0; i < runs; i++) {
    const output = await run().catch((error) => fail(`${name}: run failed: ${error?.message ?? error}`))
    if (output !== ANSWER) fail(`${name}: final output ${JSON.stringify(output)}`)
  }

  const ms = performance.now() - start
  if (server.requests.length !== 2 * runs) fail(`${name}: ${server.requests.length} requests for ${runs} runs`)
  return runs / (ms / 1000)
}

const names = opts.only ? opts.only.split(',') : ['ours', 'peer', 'bare', 'floor']
const server = await startFakeModel(script((1 + WARMUP_RUNS + ROUNDS * RUNS) * names.length))
const runs = contenders(server.url)
for (const name of names) if (!runs[name]) fail(`unknown contender ${name}`)

for (const name of names) await verify(name, runs[name], server)
for (const name of names) await block(name, runs[name], WARMUP_RUNS, server)

// Rounds alternate the order (ABCD, DCBA, ...): a machine that gets busier part-way, or a
// contender that leaves the heap or the JIT in some state, does not favour one side.
const samples = Object.fromEntries(names.map((n) => [n, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 === 0 ? names : names.toReversed()) samples[name].push(await block(name, runs[name], RUNS, server))
}

await server.close()

const roundTo = (x, digits) => Number(x.toFixed(digits))
const stats = Object.fromEntries(
  names.map((n) => {
    const sorted = samples[n].toSorted((a, b) => a - b)
    const median = quantile(sorted, 0.5)
    return [n, {runsPerS: roundTo(median, 1), msPerRun: roundTo(1000 / median, 3), min: roundTo(sorted[0], 1), max: roundTo(sorted.at(-1), 1), blocks: samples[n].map((x) => roundTo(x, 1))}]
  }),
)

const targets = []
const ratio = (a, b) => (stats[a] && stats[b] ? roundTo(stats[a].runsPerS / stats[b].runsPerS, 2) : undefined)
const ratios = {oursPerPeer: ratio('ours', 'peer'), oursPerBare: ratio('ours', 'bare')}
if (ratios.oursPerPeer !== undefined) targets.push({target: 'ours / @openai/agents runs/s', measured: ratios.oursPerPeer, limit: '>= 2.5', pass: ratios.oursPerPeer >= 2.5})
if (ratios.oursPerBare !== undefined) targets.push({target: 'ours / bare openai runs/s', measured: ratios.oursPerBare, limit: '>= 0.85', pass: ratios.oursPerBare >= 0.85})

const LABELS = {
  ours: 'ours (Runner.run, hanzo-dev dist)',
  peer: `@openai/agents ${version('@openai/agents')} (run, stream: true)`,
  bare: `bare openai ${version('openai')} (2 streamed calls by hand)`,
  floor: 'floor: 2 raw fetches, body unparsed (not a contender)',
}
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, ${platform()}-${arch()}, Node.js ${process.version}, load average (1 min) ${loadavg()[0].toFixed(2)}`
const peer = {'@openai/agents': version('@openai/agents'), openai: version('openai'), zod: version('zod'), mode: 'streaming (run(agent, input, {stream: true}), chat completions)'}

if (opts.json) {
  console.log(JSON.stringify({date: new Date().toISOString(), machine, node: process.version, peer, rounds: ROUNDS, runsPerBlock: RUNS, warmupRuns: WARMUP_RUNS, results: stats, ratios, targets}, null, 2))
} else {
  console.log(`${new Date().toISOString()}  ${machine}`)
  console.log(`Peer: @openai/agents ${peer['@openai/agents']} (openai ${peer.openai}, zod ${peer.zod}), ${peer.mode}, tracing disabled.`)
  console.log(`One run = 2 streamed chat-completion requests + 1 tool call against the in-process fake model. ${WARMUP_RUNS} warm-up runs each,`)
  console.log(`then ${ROUNDS} rounds of one ${RUNS}-run block per contender, the order reversed every round; median of the blocks.\n`)
  console.log('| contender | runs/s (median) | ms/run | blocks min-max runs/s |')
  console.log('|---|---:|---:|---:|')
  for (const n of names) console.log(`| ${LABELS[n]} | ${stats[n].runsPerS.toFixed(1)} | ${stats[n].msPerRun.toFixed(2)} | ${stats[n].min.toFixed(1)}-${stats[n].max.toFixed(1)} |`)
  if (targets.length > 0) {
    console.log('\n| target | measured | limit | result |')
    console.log('|---|---:|---:|---|')
    for (const t of targets) console.log(`| ${t.target} | ${t.measured.toFixed(2)}x | ${t.limit} | ${t.pass ? 'pass' : 'FAIL'} |`)
  }
}
