#!/usr/bin/env node
// The CLI's entry point. Start-up time is most of what a short command costs, so this file
// decides what gets loaded at all; bench/RESULTS.md has the measurements behind each choice.
import {readFileSync} from 'node:fs'
import * as nodeModule from 'node:module'
import {release} from 'node:os'
import {fileURLToPath} from 'node:url'

const args = process.argv.slice(2)

if (args.length === 1 && (args[0] === '--version' || args[0] === '-v')) {
  // Answered before oclif is imported: it is the command scripts and people time. Same text as
  // oclif's `config.userAgent`, which names WSL as its own platform.
  const {name, version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const platform = process.platform === 'linux' && release().toLowerCase().includes('microsoft') ? 'wsl' : process.platform
  process.stdout.write(`${name}/${version} ${platform}-${process.arch} node-${process.version}\n`)
} else {
  // @oclif/core's index checks Node against its own `engines` with semver: 47 more files to
  // load on every command. npm's engine-strict (and `hanzo-dev doctor`) already guard ours.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true'
  // Node >= 22.1 keeps V8's compiled code on disk between runs; Node 20 has no such cache.
  nodeModule.enableCompileCache?.()

  // What `execute()` does, from @oclif/core's narrower entry points: its index loads every
  // part of oclif (parser, flags, ux...) before the command that needs them is even known.
  try {
    const {run} = await import('@oclif/core/run')
    // The core plugins as the build found them, instead of oclif finding them again (-20 ms).
    const {loadCliConfig} = await import('../dist/cli/core-plugins.js')
    await run(args, await loadCliConfig(fileURLToPath(new URL('..', import.meta.url))))
    const {flush} = await import('@oclif/core/flush')
    await flush()
  } catch (error) {
    const {exitWithError} = await import('../dist/cli/user-facing-error.js')
    await exitWithError(error, args)
  }

  // Open handles (a language server, a socket) must not keep a finished command alive.
  process.exit(process.exitCode ?? 0)
}
