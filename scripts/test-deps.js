#!/usr/bin/env node
// `npm test`'s pretest. The third-party MCP clients the mcp tests run (the Inspector, the
// conformance suite) are a package of their own, outside the workspace (their SDK and zod must
// not meet ours): installed here when missing, so `npm test` works on a fresh clone.
import {execFileSync} from 'node:child_process'
import {existsSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const clients = join(dirname(fileURLToPath(import.meta.url)), '..', 'plugins', 'mcp', 'test', 'serve-clients')
if (!existsSync(join(clients, 'node_modules'))) {
  // Not this package's engine-strict (npm passes it on to scripts): the Inspector declares Node 22
  // for its web UI; the CLI mode the tests run works on 20.
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--engine-strict=false', '--prefix', clients], {
    stdio: 'inherit',
  })
}
