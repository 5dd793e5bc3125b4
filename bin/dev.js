#!/usr/bin/env node
// Runs the CLI from the TypeScript sources (no build step); for development only.
const {execute} = await import('@oclif/core')
await execute({development: true, dir: import.meta.url})
