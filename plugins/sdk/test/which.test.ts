import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {findExecutable} from '../src/which.js'

let sandbox: Sandbox
let first: string
let second: string

beforeEach(() => {
  sandbox = makeSandbox('hanzo-which-')
  first = join(sandbox.home, 'first')
  second = join(sandbox.home, 'second')
  mkdirSync(first)
  mkdirSync(second)
})
afterEach(() => sandbox.cleanup())

function executable(path: string, mode = 0o755): string {
  writeFileSync(path, '#!/bin/sh\n', {mode})
  return path
}

describe.skipIf(process.platform === 'win32')('findExecutable', () => {
  it('takes the first executable on PATH, skipping files that are not executable and directories', async () => {
    executable(join(first, 'tool'), 0o644)
    mkdirSync(join(first, 'dir-tool'))
    const tool = executable(join(second, 'tool'))
    executable(join(second, 'dir-tool'))
    const env = {PATH: `${first}:${second}`}
    expect(await findExecutable('tool', {cwd: sandbox.home, env})).toBe(tool)
    expect(await findExecutable('dir-tool', {cwd: sandbox.home, env})).toBe(join(second, 'dir-tool'))
  })

  it('follows symlinks, as exec does', async () => {
    const target = executable(join(second, 'real'))
    symlinkSync(target, join(first, 'alias'))
    expect(await findExecutable('alias', {cwd: sandbox.home, env: {PATH: first}})).toBe(join(first, 'alias'))
  })

  it('resolves a path with a separator against cwd, not PATH', async () => {
    const script = executable(join(first, 'run.sh'))
    expect(await findExecutable('./run.sh', {cwd: first, env: {PATH: second}})).toBe(script)
    expect(await findExecutable(script, {cwd: second, env: {}})).toBe(script)
    expect(await findExecutable('./run.sh', {cwd: second, env: {PATH: first}})).toBeUndefined()
  })

  it('reads a relative PATH entry from cwd', async () => {
    mkdirSync(join(first, 'node_modules', '.bin'), {recursive: true})
    const tool = executable(join(first, 'node_modules', '.bin', 'tsc'))
    expect(await findExecutable('tsc', {cwd: first, env: {PATH: 'node_modules/.bin'}})).toBe(tool)
  })

  it('never reads an empty PATH entry as the current directory', async () => {
    executable(join(first, 'planted'))
    expect(await findExecutable('planted', {cwd: first, env: {PATH: `:${second}:`}})).toBeUndefined()
    expect(await findExecutable('planted', {cwd: first, env: {}})).toBeUndefined()
    expect(await findExecutable('', {cwd: first, env: {PATH: first}})).toBeUndefined()
  })

  it('tries PATHEXT and any casing of Path on Windows', async () => {
    const tool = executable(join(second, 'tool.cmd'), 0o644)
    expect(
      await findExecutable('tool', {
        cwd: sandbox.home,
        env: {PATHEXT: '.EXE;.CMD', Path: `${first};${second}`},
        platform: 'win32',
      }),
    ).toBe(tool)
  })
})
