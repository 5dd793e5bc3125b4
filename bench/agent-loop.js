#!/usr/bin/env node
// Full agent runs per second (issue [agent-loop], item 10): one run is two model requests, the
// first answered with one tool call, the tool run, the second answered with the final text.
// Three contenders against one fake model server in this process: ours (Agent / Runner from the
// built dist/), the peer @openai/agents, and the bare openai client doing the two calls by hand.
// A report, not a test: exits 0 when a target is missed, 1 only when a contender answers wrong.
// Usage: node bench/agent-loop.js [--rounds N] [--runs N] [--only ours,peer,bare,floor] [--json]
import {existsSync, readFileSync} from 'node:fs'
import {Agent as HttpAgent, request as httpRequest} from 'node:http'
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
if (!existsSync(join(dist, 'index.js')) || !existsSync(join(dist, 'testing', 'fake-model', 'server.js'))) {
  console.error('bench: build first (npm run build): dist/ is missing')
  process.exit(1)
}

const ours = await import(join(dist, 'index.js'))

const {startFakeModel} = await import(join(dist, 'testing', 'fake-model', 'server.js'))

const {values: opts} = parseArgs({
  options: {
    json: {type: 'boolean'},
    only: {type: 'string'},
    rounds: {type: 'string', default: '6'},
    runs: {type: 'string', default: '200'},
  },
})
const ROUNDS = Math.max(1, Number(opts.rounds) || 6)
const RUNS = Math.max(1, Number(opts.runs) || 200)
const WARMUP_RUNS = 100

// A full GC before each block, so no block pays for the garbage of the one before it.
v8.setFlagsFromString('--expose-gc')
const gc = vm.runInNewContext('gc')

// Not require.resolve('<name>/package.json'): @openai/agents does not export it.
const version = (name) =>
  JSON.parse(readFileSync(join(import.meta.dirname, '..', 'node_modules', name, 'package.json'), 'utf8')).version

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
      {
        expect: {last_user_contains: 'Tokyo', tools_include: ['get_weather']},
        tool_calls: [{name: 'get_weather', arguments: {city: 'Tokyo'}}],
      },
      {expect: {has_tool_result_for: 'get_weather', tool_result_contains: TOOL_OUTPUT}, text: ANSWER},
    )
  }

  return {model: 'fake-model', turns}
}

function contenders(url) {
  const weather = ours.tool({
    name: 'get_weather',
    description: 'The weather in a city.',
    mutating: false,
    parameters: CITY_SCHEMA,
    execute: getWeather,
  })
  const agent = new ours.Agent({name: 'bench', instructions: INSTRUCTIONS, model: 'fake-model', tools: [weather]})
  const client = ours.createOpenAIClient({baseURL: url, api: 'chat_completions', maxRetries: 0})

  // Tracing off both ways (global and per runner): it is work we do not do. Its
  // AsyncLocalStorage is still entered on every run, which makes every promise in this process
  // dearer (ours and bare too, ~5-10% here): the price of measuring all three in one process.
  peerSdk.setTracingDisabled(true)
  const openai = new OpenAI({baseURL: url, apiKey: 'x', maxRetries: 0})
  const peerTool = peerSdk.tool({
    name: 'get_weather',
    description: 'The weather in a city.',
    parameters: z.object({city: z.string()}),
    execute: getWeather,
  })
  const peerAgent = new peerSdk.Agent({
    name: 'bench',
    instructions: INSTRUCTIONS,
    model: 'fake-model',
    tools: [peerTool],
  })
  const runner = new peerSdk.Runner({
    modelProvider: new peerSdk.OpenAIProvider({openAIClient: openai, useResponses: false}),
    tracingDisabled: true,
  })

  const bareTools = [
    {type: 'function', function: {name: 'get_weather', description: 'The weather in a city.', parameters: CITY_SCHEMA}},
  ]
  const bareRequest = (messages) =>
    openai.chat.completions.create({
      model: 'fake-model',
      messages,
      tools: bareTools,
      stream: true,
      stream_options: {include_usage: true},
    })
  // The floor sends what bare sends, as fixed bytes (the call id is ours, not the server's).
  const floorMessages = [
    {role: 'system', content: INSTRUCTIONS},
    {role: 'user', content: INPUT},
  ]
  const floorCall = [{id: 'call_1', type: 'function', function: {name: 'get_weather', arguments: '{"city":"Tokyo"}'}}]
  const floorAnswerMessages = [
    ...floorMessages,
    {role: 'assistant', content: null, tool_calls: floorCall},
    {role: 'tool', tool_call_id: 'call_1', content: TOOL_OUTPUT},
  ]
  const floorBody = (messages) =>
    JSON.stringify({
      model: 'fake-model',
      messages,
      tools: bareTools,
      stream: true,
      stream_options: {include_usage: true},
    })
  const floorBodies = [floorBody(floorMessages), floorBody(floorAnswerMessages)]

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
      const messages = [
        {role: 'system', content: INSTRUCTIONS},
        {role: 'user', content: INPUT},
      ]
      const calls = []
      for await (const chunk of await bareRequest(messages)) {
        for (const fragment of chunk.choices[0]?.delta?.tool_calls ?? []) {
          const call = (calls[fragment.index] ??= {id: '', name: '', arguments: ''})
          call.id ||= fragment.id ?? ''
          call.name ||= fragment.function?.name ?? ''
          call.arguments += fragment.function?.arguments ?? ''
        }
      }

      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: calls.map(({id, name, arguments: args}) => ({
          id,
          type: 'function',
          function: {name, arguments: args},
        })),
      })
      for (const call of calls)
        messages.push({role: 'tool', tool_call_id: call.id, content: getWeather(JSON.parse(call.arguments))})
      let text = ''
      for await (const chunk of await bareRequest(messages)) text += chunk.choices[0]?.delta?.content ?? ''
      return text
    },

    // Not a contender: the two requests over node:http (keep-alive), bodies read, not parsed:
    // what the server and the loopback HTTP cost, which every contender pays on top of its own work.
    async floor() {
      const call = await post(`${url}/chat/completions`, floorBodies[0])
      const answer = await post(`${url}/chat/completions`, floorBodies[1])
      return call.includes('"get_weather"') && answer.includes(ANSWER) ? ANSWER : answer
    },
  }
}

const keepAlive = new HttpAgent({keepAlive: true})

function post(url, body) {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        agent: keepAlive,
        headers: {'content-type': 'application/json', 'content-length': Buffer.byteLength(body)},
      },
      (response) => {
        if (response.statusCode !== 200) reject(new Error(`HTTP ${response.statusCode}`))
        response.setEncoding('utf8')
        let text = ''
        response.on('data', (chunk) => (text += chunk))
        response.on('end', () => resolve(text))
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    request.end(body)
  })
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
  const bodies = server.requests.map((r) => r.body)
  if (bodies.length !== 2) fail(`${name}: the server saw ${bodies.length} requests for one run, not 2`)
  const [first, second] = bodies
  if (first.stream !== true || second.stream !== true) fail(`${name}: a request did not ask for a stream`)
  if (!first.tools?.some((t) => t.function?.name === 'get_weather'))
    fail(`${name}: the first request does not offer get_weather`)
  const callId = second.messages.find((m) => m.role === 'assistant')?.tool_calls?.[0]?.id
  const result = second.messages.find((m) => m.role === 'tool')
  if (!callId || result?.tool_call_id !== callId || result.content !== TOOL_OUTPUT) {
    fail(`${name}: the second request does not carry the tool result for the call: ${JSON.stringify(second.messages)}`)
  }
}

// One block: `runs` sequential runs, timed as a whole. Each run's output is compared (a string
// compare, noise next to two HTTP round trips); the request count is checked after the clock
// stops. CPU time (the whole process, all threads, the server's share included) is reported
// beside wall time: other load on the machine moves it less.
async function block(name, run, runs, server) {
  gc()
  server.requests.length = 0
  const cpu = process.cpuUsage()
  const start = performance.now()
  for (let i = 0; i < runs; i++) {
    const output = await run().catch((error) => fail(`${name}: run failed: ${error?.message ?? error}`))
    if (output !== ANSWER) fail(`${name}: final output ${JSON.stringify(output)}`)
  }

  const ms = performance.now() - start
  const {user, system} = process.cpuUsage(cpu)
  if (server.requests.length !== 2 * runs) fail(`${name}: ${server.requests.length} requests for ${runs} runs`)
  return {runsPerS: runs / (ms / 1000), cpuMsPerRun: (user + system) / 1000 / runs}
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
  for (const name of round % 2 === 0 ? names : names.toReversed())
    samples[name].push(await block(name, runs[name], RUNS, server))
}

await server.close()

const roundTo = (x, digits) => Number(x.toFixed(digits))
const median = (xs) =>
  quantile(
    xs.toSorted((a, b) => a - b),
    0.5,
  )
const stats = Object.fromEntries(
  names.map((n) => {
    const perS = samples[n].map((s) => s.runsPerS)
    const runsPerS = median(perS)
    return [
      n,
      {
        runsPerS: roundTo(runsPerS, 1),
        msPerRun: roundTo(1000 / runsPerS, 3),
        cpuMsPerRun: roundTo(median(samples[n].map((s) => s.cpuMsPerRun)), 3),
        min: roundTo(Math.min(...perS), 1),
        max: roundTo(Math.max(...perS), 1),
        blocks: perS.map((x) => roundTo(x, 1)),
      },
    ]
  }),
)

// Each ratio is the median of the per-round ratios: the two blocks of a round ran seconds apart,
// so load from elsewhere on the machine moves both alike. The ratio of the medians is in --json.
const pairedRatio = (a, b) => {
  if (!samples[a] || !samples[b]) return undefined
  return {
    paired: roundTo(median(samples[a].map((s, i) => s.runsPerS / samples[b][i].runsPerS)), 2),
    ofMedians: roundTo(stats[a].runsPerS / stats[b].runsPerS, 2),
  }
}

const ratios = {oursPerPeer: pairedRatio('ours', 'peer'), oursPerBare: pairedRatio('ours', 'bare')}
const targets = []
if (ratios.oursPerPeer)
  targets.push({
    target: 'ours / @openai/agents runs/s',
    measured: ratios.oursPerPeer.paired,
    limit: '>= 2.5',
    pass: ratios.oursPerPeer.paired >= 2.5,
  })
if (ratios.oursPerBare)
  targets.push({
    target: 'ours / bare openai runs/s',
    measured: ratios.oursPerBare.paired,
    limit: '>= 0.85',
    pass: ratios.oursPerBare.paired >= 0.85,
  })

const LABELS = {
  ours: 'ours (Runner.run, hanzo-dev dist)',
  peer: `@openai/agents ${version('@openai/agents')} (run, stream: true)`,
  bare: `bare openai ${version('openai')} (2 streamed calls by hand)`,
  floor: 'floor: the 2 requests over node:http, unparsed (not a contender)',
}
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}, ${platform()}-${arch()}, Node.js ${process.version}, load average (1 min) ${loadavg()[0].toFixed(2)}`
const peer = {
  '@openai/agents': version('@openai/agents'),
  openai: version('openai'),
  zod: version('zod'),
  mode: 'streaming (run(agent, input, {stream: true}), chat completions)',
}

if (opts.json) {
  console.log(
    JSON.stringify(
      {
        date: new Date().toISOString(),
        machine,
        node: process.version,
        peer,
        rounds: ROUNDS,
        runsPerBlock: RUNS,
        warmupRuns: WARMUP_RUNS,
        results: stats,
        ratios,
        targets,
      },
      null,
      2,
    ),
  )
} else {
  console.log(`${new Date().toISOString()}  ${machine}`)
  console.log(
    `Peer: @openai/agents ${peer['@openai/agents']} (openai ${peer.openai}, zod ${peer.zod}), ${peer.mode}, tracing disabled.`,
  )
  console.log(
    `One run = 2 streamed chat-completion requests + 1 tool call against the in-process fake model. ${WARMUP_RUNS} warm-up runs each,`,
  )
  console.log(
    `then ${ROUNDS} rounds of one ${RUNS}-run block per contender, the order reversed every round; median of the blocks.\n`,
  )
  console.log('| contender | runs/s (median) | ms/run | CPU ms/run | blocks min-max runs/s |')
  console.log('|---|---:|---:|---:|---:|')
  for (const n of names) {
    const r = stats[n]
    console.log(
      `| ${LABELS[n]} | ${r.runsPerS.toFixed(1)} | ${r.msPerRun.toFixed(2)} | ${r.cpuMsPerRun.toFixed(2)} | ${r.min.toFixed(1)}-${r.max.toFixed(1)} |`,
    )
  }
  if (targets.length > 0) {
    console.log("\nRatios: the median of the per-round ratios of the two contenders' blocks.")
    console.log('| target | measured | limit | result |')
    console.log('|---|---:|---:|---|')
    for (const t of targets)
      console.log(`| ${t.target} | ${t.measured.toFixed(2)}x | ${t.limit} | ${t.pass ? 'pass' : 'FAIL'} |`)
  }
}
