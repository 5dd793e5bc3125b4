import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs'
import {join} from 'node:path'
import type {TestProject} from 'vitest/node'

/** Packages whose build is older than their sources, and what to tell the person running the tests. */
export interface StaleBuild {
  /** `.`, `plugins/sdk`, ... */
  packages: string[]
  message: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    staleBuild: StaleBuild | null
  }
}

/**
 * vitest's globalSetup: once per run, which packages were changed since `npm run build` last
 * built them. A file that runs the build then fails at once with one message
 * (require-fresh-build.ts), instead of testing yesterday's code or timing out on it.
 */
export default function setup(project: TestProject): void {
  project.provide('staleBuild', staleBuild(project.config.root))
}

function staleBuild(root: string): StaleBuild | null {
  const {workspaces} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {workspaces: string[]}
  const stale = ['.', ...workspaces].flatMap((dir) => {
    const why = staleness(join(root, dir))
    return why === undefined ? [] : [{dir, why}]
  })
  if (stale.length === 0) return null
  const details = stale.map(({dir, why}) => `  ${dir === '.' ? 'hanzo-dev' : dir}: ${why}`).join('\n')
  return {message: `dist/ is older than src/: run npm run build\n${details}`, packages: stale.map(({dir}) => dir)}
}

/**
 * Why the package's build is older than its sources, or undefined when it is not. The stamps are
 * what every build writes: tsc's build info (`tsc -b` touches it even when the output is
 * unchanged, while the .js files of unchanged sources keep their old times) and, for a package
 * with commands, the oclif manifest (which `tsc` alone leaves stale).
 */
function staleness(dir: string): string | undefined {
  const pjson = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {oclif?: unknown}
  const stamps = ['tsconfig.tsbuildinfo', ...(pjson.oclif === undefined ? [] : ['oclif.manifest.json'])]
  const missing = stamps.find((stamp) => !existsSync(join(dir, stamp)))
  if (missing !== undefined) return `never built (no ${missing})`
  const built = Math.min(...stamps.map((stamp) => statSync(join(dir, stamp)).mtimeMs))
  const newest = newestSource(join(dir, 'src'))
  return newest !== undefined && newest.mtimeMs > built ? `src/${newest.path} changed after the last build` : undefined
}

function newestSource(src: string): {path: string; mtimeMs: number} | undefined {
  let newest: {path: string; mtimeMs: number} | undefined
  for (const path of readdirSync(src, {recursive: true, encoding: 'utf8'})) {
    if (!path.endsWith('.ts')) continue
    const {mtimeMs} = statSync(join(src, path))
    if (newest === undefined || mtimeMs > newest.mtimeMs) newest = {mtimeMs, path}
  }

  return newest
}
