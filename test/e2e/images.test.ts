import {mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, afterEach, beforeAll, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {offSchema, StdioClient} from '../helpers/app-server-client.js'
import {CLI, makeSandbox, runCli, type Sandbox, useSandboxDirs} from '../helpers/cli.js'
import {Terminals} from '../helpers/terminal.js'
import {writeFakeProviderSettings} from '../helpers/wire-formats.js'

/** A real 1x1 PNG (one red pixel), as a screenshot tool writes it. */
const PNG = readFileSync(new URL('../fixtures/images/red-pixel.png', import.meta.url))
const PNG_BASE64 = PNG.toString('base64')

const READ_SHOT: Script = {
  turns: [{tool_calls: [{arguments: {path: 'shot.dat'}, id: 'call_img', name: 'fs_read'}]}, {text: 'A red dot.'}],
}

type Body = Record<string, unknown>
const messagesOf = (body: unknown) =>
  (body as {messages?: Body[]; input?: Body[]}).messages ?? (body as {input: Body[]}).input

describe('images: fs_read of a picture, to the model that takes it', () => {
  const dirs = useSandboxDirs('hanzo-images-', 'project')
  let model: FakeModel | undefined
  afterEach(async () => {
    await model?.close()
    model = undefined
  })

  async function setUp(script: Script, api: string, modelName: string, images?: boolean) {
    model = await startFakeModel(script)
    // Named .dat: fs_read knows a picture by its bytes, not its name.
    writeFileSync(join(dirs.project, 'shot.dat'), PNG)
    writeFakeProviderSettings(dirs.box.env.XDG_CONFIG_HOME, {api, images, model: modelName, url: model.url})
    return (...args: string[]) => runCli(['run', ...args], {cwd: dirs.project, env: dirs.box.env})
  }

  it('sends the picture to an OpenAI chat completions model as a user message after the tool result, and again after --continue from the saved session', async () => {
    const run = await setUp({turns: [...READ_SHOT.turns, {text: 'Still a red dot.'}]}, 'chat_completions', 'gpt-4o')
    const result = await run('what is in shot.dat?')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('A red dot.')
    const sent = messagesOf(model!.requests[1].body)
    const tool = sent.findIndex((message) => message.role === 'tool')
    expect(sent[tool]).toMatchObject({
      content: expect.stringContaining('image/png image, 70 bytes'),
      tool_call_id: 'call_img',
    })
    expect(sent[tool + 1]).toEqual({
      content: [
        {text: 'Images returned by the tool calls above: shot.dat', type: 'text'},
        {image_url: {url: `data:image/png;base64,${PNG_BASE64}`}, type: 'image_url'},
      ],
      role: 'user',
    })

    // The saved session keeps the picture inline: the next run sends it though the file is gone.
    writeFileSync(join(dirs.project, 'shot.dat'), 'changed\n')
    const again = await run('--continue', 'and now?')
    expect(again.exitCode, again.stderr).toBe(0)
    expect(JSON.stringify(model!.requests[2].body)).toContain(`data:image/png;base64,${PNG_BASE64}`)
  })

  it('sends it to an OpenAI responses model as input_image in a user message after the function call output', async () => {
    const run = await setUp(READ_SHOT, 'responses', 'gpt-5')
    expect((await run('what is in shot.dat?')).exitCode).toBe(0)
    const sent = messagesOf(model!.requests[1].body)
    const output = sent.findIndex((item) => item.type === 'function_call_output')
    expect(sent[output]).toMatchObject({call_id: 'call_img'})
    expect(sent[output + 1]).toMatchObject({
      content: [
        {type: 'input_text'},
        {detail: 'auto', image_url: `data:image/png;base64,${PNG_BASE64}`, type: 'input_image'},
      ],
      role: 'user',
      type: 'message',
    })
  })

  it('sends it to an Anthropic model as an image block in the tool_result', async () => {
    const run = await setUp(READ_SHOT, 'anthropic_messages', 'claude-sonnet-4-5')
    expect((await run('what is in shot.dat?')).exitCode).toBe(0)
    const sent = messagesOf(model!.requests[1].body)
    const results = (sent.at(-1)!.content as Body[]).filter((block) => block.type === 'tool_result')
    expect(results).toEqual([
      {
        content: [
          {text: expect.stringContaining('shot.dat: image/png image'), type: 'text'},
          {source: {data: PNG_BASE64, media_type: 'image/png', type: 'base64'}, type: 'image'},
        ],
        is_error: false,
        tool_use_id: 'call_img',
        type: 'tool_result',
        // The request's last block: a prompt-cache breakpoint (test/unit/api/anthropic-cache.test.ts).
        cache_control: {type: 'ephemeral'},
      },
    ])
  })

  it('tells a text-only model that it does not take images, and sends no picture', async () => {
    const run = await setUp(
      {
        turns: [
          READ_SHOT.turns[0],
          {expect: {tool_result_contains: 'this model does not take images (llama3.1:8b)'}, text: 'I cannot see it.'},
        ],
      },
      'chat_completions',
      'llama3.1:8b',
    )
    const result = await run('what is in shot.dat?')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('I cannot see it.')
    expect(JSON.stringify(model!.requests[1].body)).not.toContain(PNG_BASE64)
  })

  it('sends it to a model unknown by name when providers.<name>.images says it takes images', async () => {
    const run = await setUp(READ_SHOT, 'chat_completions', 'my-local-vlm', true)
    expect((await run('what is in shot.dat?')).exitCode).toBe(0)
    expect(JSON.stringify(model!.requests[1].body)).toContain(`data:image/png;base64,${PNG_BASE64}`)
  })

  it('says what the picture is in stream-json, without its bytes', async () => {
    const run = await setUp(READ_SHOT, 'chat_completions', 'gpt-4o')
    const result = await run('what is in shot.dat?', '--output-format', 'stream-json')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).not.toContain(PNG_BASE64)
    const events = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Body)
    expect(events.find((event) => event.type === 'tool_result')).toEqual({
      error: null,
      id: 'call_img',
      images: [{bytes: 70, media_type: 'image/png', name: 'shot.dat'}],
      is_error: false,
      name: 'fs_read',
      output: expect.stringContaining('shot.dat: image/png image, 70 bytes'),
      type: 'tool_result',
    })
  })

  it('says what the picture is to an app server client, in the call item and in session/read, without its bytes', async () => {
    await setUp(READ_SHOT, 'chat_completions', 'gpt-4o')
    const client = new StdioClient([], {cwd: dirs.project, env: dirs.box.env})
    await client.request('initialize', {clientInfo: {name: 'test'}})
    const {sessionId} = (await client.request('session/start', {cwd: dirs.project})).result
    const {turnId} = (await client.request('turn/start', {input: 'what is in shot.dat?', sessionId})).result
    const call = await client.next('item/completed', (p) => p.turnId === turnId && p.item.type === 'tool_call')
    const image = {bytes: 70, mediaType: 'image/png', name: 'shot.dat'}
    expect(call.params.item).toMatchObject({
      name: 'fs_read',
      result: {
        error: null,
        images: [image],
        isError: false,
        output: expect.stringContaining('shot.dat: image/png image, 70 bytes'),
      },
    })
    expect((await client.next('turn/completed', (p) => p.turnId === turnId)).params.stopReason).toBe('completed')
    const read = (await client.request('session/read', {sessionId})).result
    expect(read.messages.find((message) => message.role === 'tool')).toMatchObject({images: [image], isError: false})
    await client.close()
    expect(JSON.stringify(client.received)).not.toContain(PNG_BASE64)
    expect(JSON.stringify(client.results)).not.toContain(PNG_BASE64)
    expect(offSchema(client)).toEqual([])
  })

  it('refuses a picture over 5 MB with a hint to downscale it', async () => {
    const run = await setUp(
      {
        turns: [
          {tool_calls: [{arguments: {path: 'big.png'}, name: 'fs_read'}]},
          {expect: {tool_result_contains: 'more than the 5 MB a model takes'}, text: 'Too big.'},
        ],
      },
      'chat_completions',
      'gpt-4o',
    )
    writeFileSync(join(dirs.project, 'big.png'), Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]))
    const result = await run('look at big.png')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Too big.')
    expect(result.stderr).toContain('downscale it')
  })
})

describe('images in the chat: @shot.png and a pasted image path', () => {
  let box: Sandbox
  let project: string
  let terminals: Terminals
  let model: FakeModel

  beforeAll(async () => {
    box = makeSandbox('hanzo-chat-images-')
    project = join(box.home, 'project')
    mkdirSync(project)
    writeFileSync(join(project, 'shot.png'), PNG)
    writeFileSync(join(project, 'my shot.png'), PNG)
    model = await startFakeModel({turns: [{text: 'A red dot.'}, {text: 'Another red dot.'}]})
    writeFakeProviderSettings(box.env.XDG_CONFIG_HOME, {
      api: 'anthropic_messages',
      model: 'claude-sonnet-4-5',
      url: model.url,
    })
    terminals = Terminals.create(box.env)
  })
  afterAll(async () => {
    await terminals.close()
    await model.close()
    box.cleanup()
  })

  it('attaches the picture to the prompt: the prompt line shows [Image #1] for a pasted path', async () => {
    await terminals.open('img', `node ${CLI} chat`, {cwd: project, height: 40})
    await terminals.waitFor('img', '/help for commands')
    await terminals.keys('img', 'what is in @shot.png', 'Enter')
    const screen = await terminals.waitFor('img', 'A red dot.')
    expect(screen).toContain('Attached shot.png as an image')
    const first = (model.requests[0].body as {messages: Body[]}).messages.at(-1)!
    // The last block carries the request's prompt-cache breakpoint (test/unit/api/anthropic-cache.test.ts).
    const cached = {cache_control: {type: 'ephemeral'}}
    expect(first.content).toEqual([
      {text: 'what is in @shot.png', type: 'text'},
      {source: {data: PNG_BASE64, media_type: 'image/png', type: 'base64'}, type: 'image', ...cached},
    ])

    // A terminal pastes a dropped file's path with its spaces escaped.
    await terminals.paste('img', join(project, 'my shot.png').replaceAll(' ', '\\ '))
    await terminals.waitFor('img', '› [Image #1]')
    await terminals.keys('img', ' and this?', 'Enter')
    const after = await terminals.waitFor('img', 'Another red dot.')
    expect(after.join('\n')).toContain(`Attached ${join(project, 'my shot.png')} as [Image #1]`)
    const second = (model.requests[1].body as {messages: Body[]}).messages.at(-1)!
    expect(second.content).toEqual([
      {text: '[Image #1] and this?', type: 'text'},
      {source: {data: PNG_BASE64, media_type: 'image/png', type: 'base64'}, type: 'image', ...cached},
    ])
    await terminals.keys('img', 'C-d')
    expect(await terminals.exitStatus('img')).toBe(0)
  })
})
