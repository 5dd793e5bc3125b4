import {join} from 'node:path'

import type {ProtectedPath} from './mount-plan.js'

/** A directory commands may write in workspace mode; `create`: made (0700) when missing, before a command runs. */
export interface WritableCache {
  path: string
  create?: boolean
}

/**
 * The package managers' download caches, which commands may write in workspace mode so that
 * ordinary development works confined (`npm ci`, `pip install`, `cargo build`, `go build`,
 * `mvn`, `gradle`). Only caches of downloads: never a directory on PATH (`~/.cargo/bin`,
 * `~/go/bin`), and inside the writable ones, {@link cacheGuards} keeps read-only what runs
 * later outside the sandbox. npm's and the XDG cache are made when missing (npm and pip fail
 * when they cannot create them); the others count only once their tool has made them.
 */
export function packageCaches(home: string, env: Readonly<Record<string, string | undefined>>): WritableCache[] {
  return [
    {create: true, path: join(home, '.npm')},
    {create: true, path: xdgCache(home, env)},
    {path: join(home, '.cargo', 'registry')},
    {path: join(home, '.cargo', 'git')},
    {path: join(home, 'go', 'pkg', 'mod')},
    {path: join(home, '.m2', 'repository')},
    {path: join(home, '.gradle', 'caches')},
  ]
}

/**
 * What stays read-only inside the writable caches: what a tool runs from there later, outside the
 * sandbox (packages `npx` runs, the package managers corepack runs, pre-commit's hook
 * environments) and hanzo-dev's own cache. Made empty when missing, so a command cannot be the
 * one to create them.
 */
export function cacheGuards(home: string, env: Readonly<Record<string, string | undefined>>): ProtectedPath[] {
  const cache = xdgCache(home, env)
  const runs = 'programs there run later, outside the sandbox'
  return [
    {create: true, path: join(home, '.npm', '_npx'), why: `npx's packages: ${runs}`},
    {create: true, path: join(cache, 'node', 'corepack'), why: `corepack's package managers: ${runs}`},
    {create: true, path: join(cache, 'pre-commit'), why: `pre-commit's hook environments: ${runs}`},
    {create: true, path: join(cache, 'hanzo-dev'), why: "hanzo-dev's own cache"},
  ]
}

function xdgCache(home: string, env: Readonly<Record<string, string | undefined>>): string {
  const value = env.XDG_CACHE_HOME
  return value && value.startsWith('/') ? value : join(home, '.cache')
}
