#!/usr/bin/env node
// `--version` is answered here, before oclif is imported: it is the one command people time.
import {readFileSync} from 'node:fs'

const args = process.argv.slice(2)
if (args.length === 1 && (args[0] === '--version' || args[0] === '-v' || args[0] === 'version')) {
  const {version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`hanzo-dev/${version} ${process.platform}-${process.arch} node-${process.version}\n`)
} else {
  const {execute} = await import('@oclif/core')
  await execute({dir: import.meta.url})
  // Open handles (a language server, a socket) must not keep a finished command alive.
  process.exit(process.exitCode ?? 0)
}
