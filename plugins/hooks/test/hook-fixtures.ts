import {existsSync, readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import type {HookConfig} from '@hanzo-dev/sdk'

import {HookRunner} from '../src/hook-runner.js'

/** A hook as parseHooks would give it: defaults filled in. */
export function hook(partial: Partial<HookConfig> & Pick<HookConfig, 'command' | 'event'>): HookConfig {
  return {fail_open: false, timeout_ms: 5000, tool_pattern: '*', ...partial}
}

/** An executable `/bin/sh` script in `dir`; returns its path, which is the whole hook command. */
export function script(dir: string, name: string, body: string): string {
  const path = join(dir, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`, {mode: 0o755})
  return path
}

/** A runner over real processes whose log is kept for the test to read. */
export function makeRunner(projectRoot: string, hooks: HookConfig[], env: Record<string, string> = {}) {
  const logged: string[] = []
  const runner = new HookRunner(hooks, {env: {PATH: process.env.PATH, ...env}, log: (m) => logged.push(m), projectRoot})
  return {logged, runner}
}

export const context = (cwd: string, signal = new AbortController().signal) => ({cwd, sessionId: 'session-1', signal})

/** Whether a process is still there; a killed one may take a moment to be reaped by init. */
export async function processGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0)
    } catch {
      return true
    }

    // A zombie still answers signal 0 until its new parent reaps it.
    if (isZombie(pid)) return true
    await new Promise((r) => setTimeout(r, 20))
  }

  return false
}

function isZombie(pid: number): boolean {
  const stat = `/proc/${pid}/stat`
  return existsSync(stat) && / Z /.test(readFileSync(stat, 'utf8').replace(/^.*\)/, ')'))
}

export async function waitForFile(path: string): Promise<string> {
  for (let i = 0; i < 250 && !existsSync(path); i++) await new Promise((r) => setTimeout(r, 20))
  return readFileSync(path, 'utf8').trim()
}
