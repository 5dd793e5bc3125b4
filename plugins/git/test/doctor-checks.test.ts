import {execFileSync} from 'node:child_process'
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {DoctorCheck} from '@hanzo-dev/sdk'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, type Sandbox} from '../../../test/helpers/cli.js'
import {gitChecks} from '../src/doctor-checks.js'
import {readRepository} from '../src/repository.js'

let sandbox: Sandbox
let env: Record<string, string>

beforeEach(() => {
  sandbox = makeSandbox('hanzo-git-')
  // The sandbox's parent is never searched for a repository, and no global git config leaks in.
  env = {...sandbox.env, GIT_CEILING_DIRECTORIES: sandbox.home, GIT_CONFIG_NOSYSTEM: '1', PATH: process.env.PATH ?? ''}
})
afterEach(() => sandbox.cleanup())

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {cwd, encoding: 'utf8', env}).trim()
}

function repo(): string {
  const dir = join(sandbox.home, 'repo')
  mkdirSync(dir)
  git(dir, 'init', '--quiet', '--initial-branch=main')
  return dir
}

function commit(dir: string): void {
  writeFileSync(join(dir, 'README.md'), 'hello\n')
  git(dir, 'add', 'README.md')
  git(dir, '-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-m', 'first')
}

function byId(checks: DoctorCheck[], id: string) {
  return checks.find((c) => c.id === id)
}

describe('readRepository', () => {
  it('reads the top level and branch from a subdirectory', async () => {
    const dir = repo()
    commit(dir)
    git(dir, 'switch', '--quiet', '-c', 'feature/x')
    mkdirSync(join(dir, 'src'))
    expect(await readRepository({cwd: join(dir, 'src'), env})).toEqual({branch: 'feature/x', root: dir})
  })

  it('names the branch of a repository with no commit yet', async () => {
    expect(await readRepository({cwd: repo(), env})).toEqual({branch: 'main', root: join(sandbox.home, 'repo')})
  })

  it('reports a detached HEAD with its commit', async () => {
    const dir = repo()
    commit(dir)
    git(dir, 'switch', '--quiet', '--detach', 'HEAD')
    const info = await readRepository({cwd: dir, env})
    expect(info?.branch).toBeUndefined()
    expect(info?.detachedAt).toBe(git(dir, 'rev-parse', '--short', 'HEAD'))
  })

  it('is undefined outside a repository', async () => {
    expect(await readRepository({cwd: sandbox.home, env})).toBeUndefined()
  })
})

describe('gitChecks', () => {
  const signal = new AbortController().signal

  it('reports git, its version and the repository', async () => {
    const dir = repo()
    const checks = await gitChecks({cwd: dir, env, signal})
    expect(byId(checks, 'git.found')).toMatchObject({detail: expect.stringMatching(/^\d+\.\d+/), status: 'ok'})
    expect(byId(checks, 'git.repository')).toMatchObject({detail: `${dir} (branch main)`, status: 'ok'})
  })

  it('skips the repository check outside a repository', async () => {
    const checks = await gitChecks({cwd: sandbox.home, env, signal})
    expect(byId(checks, 'git.repository')).toMatchObject({status: 'skip'})
  })

  it('fails when git is not on PATH and warns about gh with a hint', async () => {
    const empty = join(sandbox.home, 'empty-bin')
    mkdirSync(empty)
    const checks = await gitChecks({cwd: sandbox.home, env: {...env, PATH: empty}, signal})
    expect(byId(checks, 'git.found')).toMatchObject({detail: 'not found on PATH', status: 'fail'})
    expect(byId(checks, 'git.found')?.hint).toContain('install git')
    expect(byId(checks, 'git.repository')).toMatchObject({status: 'skip'})
    expect(byId(checks, 'git.gh')).toMatchObject({hint: expect.stringContaining('cli.github.com'), status: 'warn'})
  })

  it('finds gh on PATH', async () => {
    const bin = join(sandbox.home, 'bin')
    mkdirSync(bin)
    writeFileSync(join(bin, 'gh'), '#!/bin/sh\nexit 0\n', {mode: 0o755})
    const checks = await gitChecks({cwd: sandbox.home, env: {...env, PATH: `${bin}:${env.PATH}`}, signal})
    expect(byId(checks, 'git.gh')).toMatchObject({detail: join(bin, 'gh'), status: 'ok'})
  })
})
