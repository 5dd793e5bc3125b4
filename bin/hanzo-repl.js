#!/usr/bin/env node
// HIP-301 §16: hanzo-repl was renamed hanzo-dev; the old name keeps working for now.
process.stderr.write('hanzo-repl is deprecated and will be removed: use hanzo-dev instead.\n')
await import('./run.js')
