import {appendFileSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {SessionStore, TranscriptFile} from '../../../src/adapters/session-store.js'
import {Agent, type ApiClient, type StreamEvent, tool} from '../../../src/core/agent/index.js'
import {Runner} from '../../../src/core/agent/runner.js'
import {INTERRUPTED_RESULT} from '../../../src/core/agent/history-repair.js'
import {SessionRecorder} from '../../../src/core/sessions/recorder.js'
import type {SessionHeader} from '../../../src/core/sessions/transcript.js'
import {useSandboxDirs} from '../../helpers/cli.js'

const ID = '2b6c1f3a-8d1e-4c55-9f0a-6f1d2e3c4b5a'
const header = (id = ID, root = '/work/p'): SessionHeader => ({
  created_at: new Date(0).toISOString(),
  cwd: root,
  id,
  model: 'm',
  project_root: root,
  provider: 'p',
  type: 'session',
  version: 1,
})

describe('SessionStore and TranscriptFile', () => {
  const dirs = useSandboxDirs('hanzo-sessions-', 'data')
  const store = () => SessionStore.at(dirs.data)
  const save = (id: string, root = '/work/p', mtime?: number) => {
    const path = store().pathFor(root, id)
    const file = new TranscriptFile(path, () => {})
    file.append(header(id, root))
    file.close()
    if (mtime !== undefined) utimesSync(path, mtime, mtime)
    return path
  }

  it('appends whole lines to a private file in a private directory', () => {
    const path = save(ID)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700)
    expect(readFileSync(path, 'utf8')).toBe(`${JSON.stringify(header())}\n`)
  })

  it('ends a torn last line before appending, so the new line stays whole', async () => {
    const path = save(ID)
    appendFileSync(path, '{"type":"user","cont')
    const file = new TranscriptFile(path, () => {})
    file.append({content: 'again', type: 'user'})
    file.close()
    const {transcript} = await store().load(path)
    expect(transcript.lines).toEqual([{content: 'again', type: 'user'}])
    expect(transcript.skipped).toEqual([{line: 2, reason: 'unreadable'}])
  })

  it('warns once when the transcript cannot be written, and never throws', () => {
    writeFileSync(join(dirs.data, 'sessions'), 'a file where the directory goes')
    const warnings: string[] = []
    const file = new TranscriptFile(store().pathFor('/work/p', ID), (message) => warnings.push(message))
    file.append(header())
    file.append(header())
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('could not save the session')
  })

  it('lists a project’s sessions newest first, finds ids by a unique prefix', async () => {
    save('aaaa0000-0000-4000-8000-000000000001', '/work/p', 1000)
    save('aaaa1111-0000-4000-8000-000000000002', '/work/p', 3000)
    save('bbbb0000-0000-4000-8000-000000000003', '/work/other', 2000)
    expect((await store().list('/work/p')).map((s) => s.id.slice(0, 8))).toEqual(['aaaa1111', 'aaaa0000'])
    expect((await store().list()).map((s) => s.id.slice(0, 8))).toEqual(['aaaa1111', 'bbbb0000', 'aaaa0000'])
    expect((await store().latest('/work/p'))?.id).toBe('aaaa1111-0000-4000-8000-000000000002')
    expect(await store().latest('/work/none')).toBeUndefined()
    expect((await store().find('BBBB')).id).toBe('bbbb0000-0000-4000-8000-000000000003')
    await expect(store().find('aaaa')).rejects.toThrow(/could be any of 2 sessions/)
    await expect(store().find('cccc')).rejects.toThrow(/No saved session cccc/)
    await expect(store().find('../../etc/passwd')).rejects.toMatchObject({exitCode: 2})
  })

  it('says a prefix under 4 characters is too short, not that it is no session id', async () => {
    save(ID)
    await expect(store().find('2b6')).rejects.toMatchObject({
      exitCode: 2,
      message: '"2b6" is too short: give at least 4 characters of the session id',
    })
    await expect(store().find('2b6z')).rejects.toThrow('"2b6z" is not a session id')
    expect((await store().find('2b6c')).id).toBe(ID)
  })

  it('deletes a session, and its project directory once empty', async () => {
    const path = save(ID)
    await store().delete(await store().find(ID))
    expect(existsSync(path)).toBe(false)
    expect(existsSync(join(path, '..'))).toBe(false)
  })

  it('gives back the conversation exactly as the run left it, tool calls answered', async () => {
    const echo = tool<{text: string}>({
      description: 'Echoes',
      execute: ({text}) => text,
      mutating: false,
      name: 'echo',
      parameters: {type: 'object'},
    })
    const replies: StreamEvent[][] = [
      [
        {call: {arguments: '{"text":"x"}', id: 'c1', input: {text: 'x'}, name: 'echo'}, type: 'tool_use'},
        {stopReason: 'tool_use', type: 'message_stop'},
      ],
      [
        {text: 'done', type: 'content_delta'},
        {stopReason: 'end_turn', type: 'message_stop'},
      ],
    ]
    const client: ApiClient = {
      async *sendMessage() {
        yield* replies.shift() ?? []
      },
    }
    const agent = new Agent({instructions: 'sys', model: 'm', name: 'a', tools: [echo]})
    const path = save(ID)
    const file = new TranscriptFile(path, () => {})
    const recorder = new SessionRecorder({
      count: (line) => file.append(line),
      history: [],
      instructions: 'sys',
      now: () => new Date(),
      provider: 'p',
      write: (line) => file.append(line),
    })
    const result = await Runner.run(agent, 'go', {
      client: recorder.wrap(client),
      onEvent: (event) => recorder.onEvent(event),
    })
    recorder.finish(result.history)
    file.close()
    expect((await store().load(path)).history).toEqual(result.history.slice(1))
    // Killed between the lines of one request (the call saved, its result not): the result is filled in.
    const cut = readFileSync(path, 'utf8').split('\n').slice(0, 4).join('\n')
    mkdirSync(join(dirs.data, 'cut'))
    writeFileSync(join(dirs.data, 'cut', 'x.jsonl'), `${cut}\n`)
    const {history} = await store().load(join(dirs.data, 'cut', 'x.jsonl'))
    expect(history.at(-1)).toEqual({
      content: INTERRUPTED_RESULT,
      isError: true,
      role: 'tool',
      toolCallId: 'c1',
      toolName: 'echo',
    })
  })
})
