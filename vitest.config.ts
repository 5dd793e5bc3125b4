import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'plugins/*/test/**/*.test.ts'],
    // Integration tests spawn the built CLI and real processes (git, npm, language servers).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on processes (the CLI, git, servers, terminals), not the CPU: two at a time
    // on a 2-core machine, where the default (cores - 1) would run one.
    maxWorkers: 2,
    // Files that run the build fail at once when it is older than the sources (test/support/fresh-build.ts).
    globalSetup: ['test/support/fresh-build.ts'],
    setupFiles: ['test/support/require-fresh-build.ts'],
  },
})
