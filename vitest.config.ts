import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'plugins/*/test/**/*.test.ts'],
    // Integration tests spawn the built CLI and real processes (git, npm, language servers).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Files that run the build fail at once when it is older than the sources (test/support/fresh-build.ts).
    globalSetup: ['test/support/fresh-build.ts'],
    setupFiles: ['test/support/require-fresh-build.ts'],
  },
})
