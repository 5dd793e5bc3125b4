import {readFile} from 'node:fs/promises'
import {join} from 'node:path'
import {fileURLToPath, pathToFileURL} from 'node:url'
import {afterAll, beforeAll, describe, expect, it, vi} from 'vitest'

import type {ElicitationRequest} from '@hanzo-dev/sdk'

import {clientRequests} from '../src/client-requests.js'
import {mentionCandidates} from '../src/mention-completion.js'
import {promptCommands} from '../src/prompt-commands.js'
import type {McpServers} from '../src/servers.js'
import {mcpSlashCommands} from '../src/slash.js'
import {openSessionServers} from '../src/session-servers.js'
import {library, servers, stdioEverything, tempDir} from './mcp-fixtures.js'

// server-everything from npm, started once for the file: its resources, templates, prompts
// (with arguments, completions and an embedded resource) and tools that link to resources.
describe('MCP resources and prompts against server-everything', () => {
  let temp: Awaited<ReturnType<typeof tempDir>>
  let mcp: McpServers
  /** A second server-everything, told to log warnings and worse only (mcp_servers.quiet.log_level). */
  let quiet: McpServers
  const context = () => ({cwd: temp.dir, sessionId: 's', signal: new AbortController().signal})
  const tool = (name: string) => mcp.tools().find((t) => t.name === name)!

  beforeAll(async () => {
    temp = await tempDir()
    mcp = await servers([stdioEverything()], temp.dir)
    quiet = await servers([stdioEverything('quiet', {logLevel: 'warning'})], temp.dir)
    await Promise.all([mcp.start(), quiet.start()])
  })

  afterAll(async () => {
    await Promise.all([mcp?.close(), quiet?.close()])
    await temp?.remove()
  })

  it('lists resources and templates, and offers mcp_read_resource last, a read of the uri', async () => {
    const everything = mcp.connection('everything')!
    const resources = await everything.resources()
    expect(resources.map((r) => r.uri)).toContain('demo://resource/static/document/architecture.md')
    expect((await everything.resourceTemplates()).map((t) => t.uriTemplate)).toContain(
      'demo://resource/dynamic/text/{resourceId}',
    )
    const names = mcp.tools().map((t) => t.name)
    expect(names.at(-1)).toBe('mcp_read_resource')
    const read = tool('mcp_read_resource')
    expect(read.mutating).toBe(false)
    expect(read.kind).toBe('read')
    expect(read.subject?.({server: 'everything', uri: 'demo://x'})).toEqual({kind: 'url', url: 'demo://x'})
  })

  it('reads text, summarises binary, and tells the model about an unknown server', async () => {
    const read = tool('mcp_read_resource')
    const text = await read.execute({server: 'everything', uri: 'demo://resource/dynamic/text/3'}, context())
    expect(text.is_error).toBe(false)
    expect(text.output).toMatch(
      /^\[resource demo:\/\/resource\/dynamic\/text\/3 text\/plain\]\nResource 3: This is a plaintext/,
    )
    const blob = await read.execute({server: 'everything', uri: 'demo://resource/dynamic/blob/2'}, context())
    expect(blob.output).toMatch(/\[resource demo:\/\/resource\/dynamic\/blob\/2 text\/plain, \d+ bytes \(binary\)/)
    const other = await read.execute({server: 'nope', uri: 'demo://x'}, context())
    expect(other).toMatchObject({
      error: expect.stringMatching(/no MCP server "nope".*servers with resources: everything/),
      is_error: true,
    })
    const missing = await read.execute({server: 'everything', uri: 'demo://resource/dynamic/text/0'}, context())
    expect(missing).toMatchObject({
      error: expect.stringMatching(/failed reading demo:.*Unknown resource/),
      is_error: true,
    })
  })

  it('tells the model how to read a linked resource, and includes an embedded one as text', async () => {
    const links = await tool('mcp__everything__get-resource-links').execute({count: 2}, context())
    expect(links.output).toContain(
      'read it with mcp_read_resource {"server":"everything","uri":"demo://resource/dynamic/text/2"}',
    )
    const embedded = await tool('mcp__everything__get-resource-reference').execute(
      {resourceId: 4, resourceType: 'Text'},
      context(),
    )
    expect(embedded.output).toMatch(
      /\[resource demo:\/\/resource\/dynamic\/text\/4 text\/plain\]\nResource 4: This is a plaintext/,
    )
  })

  it("makes the server's prompts slash commands: positional or name=value arguments, usage when one is missing", async () => {
    const warnings: string[] = []
    const commands = await promptCommands(mcp.connections, (w) => warnings.push(w))
    expect(warnings).toEqual([])
    const byName = new Map(commands.map((c) => [c.name, c]))
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining([
        'mcp__everything__simple-prompt',
        'mcp__everything__args-prompt',
        'mcp__everything__completable-prompt',
        'mcp__everything__resource-prompt',
      ]),
    )
    const args = byName.get('mcp__everything__args-prompt')!
    expect(args.argsHint).toBe('<city> [state]')
    const run = (typed: string) =>
      args.run({args: typed, argv: typed.split(/\s+/), cwd: temp.dir, signal: new AbortController().signal})
    expect(await run('Paris France')).toEqual({prompt: "What's weather in Paris, France?"})
    expect(await run('state=Texas "El Paso"')).toEqual({prompt: "What's weather in El Paso, Texas?"})
    expect(await run('')).toEqual({
      message: 'missing argument: city\nusage: /mcp__everything__args-prompt <city> [state]',
    })
    expect(await run('a b c')).toMatchObject({message: expect.stringMatching(/^too many arguments/)})
    const resource = await byName.get('mcp__everything__resource-prompt')!.run({
      args: 'Text 5',
      argv: ['Text', '5'],
      cwd: temp.dir,
      signal: new AbortController().signal,
    })
    expect(resource?.context).toMatch(/^\[resource demo:\/\/resource\/dynamic\/text\/5 text\/plain\]\nResource 5:/)
    expect(resource?.prompt).toMatch(/text/i)
  })

  it('completes prompt arguments through completion/complete', async () => {
    const completion = await mcp.connection('everything')!.complete({
      argument: {name: 'department', value: 'E'},
      ref: {name: 'completable-prompt', type: 'ref/prompt'},
    })
    expect(completion.values).toEqual(['Engineering'])
    // The slash command completes its last argument, the ones before it as context.
    const commands = await promptCommands(mcp.connections, () => {})
    const team = commands.find((c) => c.name === 'mcp__everything__completable-prompt')!
    const signal = new AbortController().signal
    expect(await team.complete!('Sa', signal)).toEqual(['Sales'])
    expect(await team.complete!('Sales ', signal)).toEqual(['David', 'Eve', 'Frank'])
    expect(await team.complete!('Marketing name=I', signal)).toEqual(['name=Iris'])
  })

  it("answers roots/list with the session's root, and logs what the server says to its log file and /mcp", async () => {
    const roots = await tool('mcp__everything__get-roots-list').execute({}, context())
    expect(roots.output).toContain(pathToFileURL(temp.dir).href)
    // server-everything logs each roots/list answer it gets.
    const everything = mcp.connection('everything')!
    await vi.waitFor(() => expect(everything.log.last.join('\n')).toMatch(/Roots updated: 1 root\(s\)/))
    await everything.log.flushed()
    expect(await readFile(everything.logFile, 'utf8')).toMatch(/\[info\] everything-server: Roots updated: 1 root\(s\)/)
    const shown = await mcpSlashCommands(mcp)[0].run({
      args: '',
      argv: [],
      cwd: temp.dir,
      signal: new AbortController().signal,
    })
    expect(shown?.message).toMatch(
      /\n {6}log: \d+ info\n(?: {8}.*\n)* {8}\[info\] everything-server: Roots updated: 1 root\(s\)/,
    )
  })

  it('offers @ mentions: server: names, then the resources (named) and templates of that server', async () => {
    expect(await mentionCandidates(mcp.withResources(), 'ev')).toEqual([{label: 'MCP server', value: 'everything:'}])
    expect(await mentionCandidates(mcp.withResources(), 'src')).toEqual([])
    const document = await mentionCandidates(mcp.withResources(), 'everything:demo://resource/static/document/arch')
    expect(document).toEqual([
      {label: 'architecture.md', value: 'everything:demo://resource/static/document/architecture.md'},
    ])
    const dynamic = await mentionCandidates(mcp.withResources(), 'everything:demo://resource/dynamic/text/')
    expect(dynamic.map((c) => c.value)).toContain('everything:demo://resource/dynamic/text/{resourceId}')
    expect(await mentionCandidates(mcp.withResources(), 'nope:demo')).toEqual([])
  })

  it('follows a resource it read: its change is read again for the next request, with one notice', async () => {
    const everything = mcp.connection('everything')!
    const notices: string[] = []
    mcp.subscriptions.onNotice((line) => notices.push(line))
    const uri = 'demo://resource/dynamic/text/1'
    await tool('mcp_read_resource').execute({server: 'everything', uri}, context())
    // The read subscribed; following it again waits for the server's answer.
    expect(await mcp.subscriptions.follow(everything, uri)).toBe(true)
    expect(everything.log.last.join('\n')).toContain(`Received Subscribe Resource request for URI: ${uri}`)
    expect(mcp.subscriptions.take()).toBeUndefined()
    // server-everything sends an update for each subscription (the earlier tests read some too) as soon as its
    // updates are turned on, then every 5 s.
    const toggle = tool('mcp__everything__toggle-subscriber-updates')
    await toggle.execute({}, context())
    try {
      await vi.waitFor(() => expect(notices).toContain(`resource everything:${uri} changed`))
      expect(mcp.subscriptions.take()).toMatch(
        /(?:^|\n)The MCP resource everything:demo:\/\/resource\/dynamic\/text\/1 changed; it now reads:\n\[resource demo:\/\/resource\/dynamic\/text\/1 text\/plain\]\nResource 1:/,
      )
      expect(mcp.subscriptions.take()).toBeUndefined()
    } finally {
      await toggle.execute({}, context())
    }

    // The session's end unsubscribes.
    await mcp.subscriptions.close()
    await vi.waitFor(() =>
      expect(everything.log.last.join('\n')).toContain(`Received Unsubscribe Resource request: ${uri}`),
    )
  })

  it('sets the log level a server was given (logging/setLevel), and answers ping', async () => {
    const connection = quiet.connection('quiet')!
    // server-everything logs an info line before it answers a subscription: below the level, it is not sent.
    expect(await connection.subscribe('demo://resource/dynamic/text/2')).toBe(true)
    expect(connection.log.counts.get('info')).toBeUndefined()
    expect(mcp.connection('everything')!.log.counts.get('info')).toBeGreaterThan(0)
    const pings = await quiet.pings()
    expect(typeof pings.get('quiet')).toBe('number')
  })

  it('an interrupted call sends notifications/cancelled: the server stops its handler', async () => {
    const marks = join(temp.dir, 'cancel-marks')
    const fixture = fileURLToPath(new URL('fixtures/cancel-server.mjs', import.meta.url))
    const cancel = await servers(
      [
        {
          disabled: false,
          name: 'cancel',
          transport: {args: [fixture, marks], command: process.execPath, type: 'stdio'},
        },
      ],
      temp.dir,
    )
    await cancel.start()
    const turn = new AbortController()
    const call = cancel.tools()[0].execute({}, {cwd: temp.dir, sessionId: 's', signal: turn.signal})
    await vi.waitFor(async () => expect(await readFile(marks, 'utf8').catch(() => '')).toContain('started'))
    turn.abort()
    await call.catch(() => {})
    await vi.waitFor(async () => expect(await readFile(marks, 'utf8')).toMatch(/^cancelled \d+$/m))
    await cancel.close()
  })

  it('a question the server withdraws (notifications/cancelled) stops our handler: the host sees its signal abort', async () => {
    const fixture = fileURLToPath(new URL('fixtures/withdraw-server.mjs', import.meta.url))
    let asked!: (request: ElicitationRequest) => void
    const question = new Promise<ElicitationRequest>((resolve) => (asked = resolve))
    // A user who never answers: only the server's withdrawal ends the question.
    const elicit = (request: ElicitationRequest) => {
      asked(request)
      return new Promise<never>(() => {})
    }
    const withdraw = await openSessionServers(
      [{disabled: false, name: 'withdraw', transport: {args: [fixture], command: process.execPath, type: 'stdio'}}],
      {
        clientRequests: clientRequests({elicit}, () => {}),
        cwd: temp.dir,
        dataDir: temp.dir,
        env: process.env,
        library,
        settings: {},
        warn: () => {},
      },
    )
    try {
      await withdraw.start()
      const [ask, stop] = withdraw.tools()
      const asking = ask.execute({}, context())
      const {signal} = await question
      expect(signal?.aborted).toBe(false)
      const aborted = new Promise<void>((resolve) => signal!.addEventListener('abort', () => resolve()))
      await stop.execute({}, context())
      await aborted
      expect((await asking).output).toMatch(/^no answer: .*withdrew its question/)
    } finally {
      await withdraw.close()
    }
  })
})
