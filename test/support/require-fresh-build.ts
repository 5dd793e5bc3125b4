import {relative} from 'node:path'
import {fileURLToPath} from 'node:url'
import {beforeAll, expect, inject} from 'vitest'

import type {} from './fresh-build.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Unit tests and vectors import the TypeScript sources, except the sdk's: `@hanzo-dev/sdk` is
 * always its dist. Every other file may run the built CLI (bin/run.js) or load a dist module.
 */
const RUNS_SOURCES = /^test\/(unit|vectors)\//

/** vitest's setupFiles: a file that runs what a stale build holds fails at once, with one message (fresh-build.ts). */
beforeAll(() => {
  const stale = inject('staleBuild')
  if (stale === null) return
  const runsSources =
    RUNS_SOURCES.test(relative(ROOT, expect.getState().testPath ?? '')) && !stale.packages.includes('plugins/sdk')
  if (!runsSources) throw new Error(stale.message)
})
