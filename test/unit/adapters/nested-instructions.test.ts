import {mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {dirname, join} from 'node:path'
import type {ToolKind} from '@hanzo-dev/sdk'
import {type ToolResult, toolError, toolOk} from '@hanzo-dev/sdk/tools'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {MAX_NESTED_INSTRUCTION_BYTES, nestedInstructions} from '../../../src/adapters/nested-instructions.js'

describe('nested instructions: AGENTS.md below cwd, with the first result under its directory', () => {
  let base: string
  let root: string
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(base, path)), {recursive: true})
    writeFileSync(join(base, path), text)
  }

  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'hanzo-nested-')))
    root = join(base, 'repo')
    mkdirSync(root)
  })
  afterEach(() => rmSync(base, {force: true, recursive: true}))

  /** A call of `name` (a read, an edit or a command, as its descriptor says) on `path` whose tool answered `answer`, through the middleware. */
  async function caller(cwd = root) {
    const middleware = await nestedInstructions(root, cwd, () => {})
    const kinds: Record<string, ToolKind> = {exec: 'execute', fs_edit: 'edit'}
    return (name: string, path: string, answer: ToolResult = toolOk('text')) =>
      middleware
        .wrap(async () => answer)(
          {input: {path}, kind: kinds[name] ?? 'read', locations: [{path}], name},
          {cwd: root, sessionId: 's', signal: new AbortController().signal},
        )
        .then((result) => result.output)
  }

  it('leaves out what the system prompt has (root down to cwd) and what is outside the root', async () => {
    write('AGENTS.md', 'Above the root.\n')
    write('repo/AGENTS.md', 'Root.\n')
    write('repo/cwd/AGENTS.md', 'Cwd.\n')
    write('repo/cwd/f.ts', '')
    write('repo/f.ts', '')
    write('other/AGENTS.md', 'Outside.\n')
    write('other/f.ts', '')
    const call = await caller(join(root, 'cwd'))
    expect(await call('fs_read', 'f.ts')).toBe('text')
    expect(await call('fs_read', 'cwd/f.ts')).toBe('text')
    expect(await call('fs_read', '../other/f.ts')).toBe('text')
  })

  it('waits for a read or an edit that succeeds; a directory location is itself, a command none', async () => {
    write('repo/a/AGENTS.md', 'A rules.\n')
    write('repo/a/f.ts', '')
    const call = await caller()
    expect(await call('fs_read', 'a/f.ts', toolError('denied'))).toBe('')
    expect(await call('exec', 'a/f.ts')).toBe('text')
    expect(await call('fs_list', 'a')).toBe('text\n\nInstructions from a/AGENTS.md:\nA rules.\n')
    expect(await call('fs_read', 'a/f.ts')).toBe('text')
  })

  it(`reads the directories between, each once, within ${MAX_NESTED_INSTRUCTION_BYTES / 1024} KB in all`, async () => {
    write('repo/a/HANZO.md', `${'x'.repeat(MAX_NESTED_INSTRUCTION_BYTES - 10)}\n`)
    write('repo/a/b/AGENTS.md', 'B rules, long enough to pass the cap.\n')
    write('repo/a/b/f.ts', '')
    write('repo/c/AGENTS.md', 'C rules.\n')
    write('repo/c/f.ts', '')
    const call = await caller()
    const first = await call('fs_edit', 'a/b/f.ts')
    expect(first.indexOf('Instructions from a/HANZO.md:')).toBeLessThan(
      first.indexOf('Instructions from a/b/AGENTS.md:'),
    )
    expect(first).toContain('[... cut: instructions are limited to 16 KB in all ...]')
    expect(await call('fs_read', 'c/f.ts')).toBe('text')
  })
})
