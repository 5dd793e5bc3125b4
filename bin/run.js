#!/usr/bin/env node
// The CLI's entry point. Start-up time is most of what a short command costs, so this file
// decides what gets loaded at all; bench/RESULTS.md has the measurements behind each choice.
import {readFileSync} from 'node:fs'
import * as nodeModule from 'node:module'
import {fileURLToPath} from 'node:url'

// A reader that stops early (`hanzo-dev --help | head -1`) closes the pipe: what it wanted is
// written, so the command ends there, quietly and successfully, instead of waiting for a drain
// that never comes.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error.code === 'EPIPE') process.exit(0)
    throw error
  })
}

const argv = process.argv.slice(2)
// A bare `hanzo-dev` on a terminal is the interactive session; elsewhere it prints help, as before.
const args = argv.length === 0 && process.stdin.isTTY && process.stdout.isTTY ? ['chat'] : argv
// `--version` is the command scripts and people time: answered before oclif is imported, with
// oclif's `config.userAgent`, wherever the platform it names is plain to see (src/cli/platform.ts).
const platform =
  args.length === 1 && (args[0] === '--version' || args[0] === '-v')
    ? (await import('../dist/cli/platform.js')).plainPlatform()
    : undefined

// `config get KEY [--json]`, the command scripts call most: its plain success answered without
// oclif, by the command's own code (src/cli/fast-config-get.ts); anything else goes to oclif.
const answered =
  !platform &&
  args[0] === 'config' &&
  args[1] === 'get' &&
  (args.length === 3 || args.length === 4) &&
  (await import('../dist/cli/fast-config-get.js')).fastConfigGet(args)

if (platform) {
  const {name, version} = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  process.stdout.write(`${name}/${version} ${platform}-${process.arch} node-${process.version}\n`)
} else if (!(await answered)) {
  // @oclif/core's index checks Node against its own `engines` with semver: 47 more files to
  // load on every command. npm's engine-strict (and `hanzo-dev doctor`) already guard ours.
  process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true'
  // A linked plugin runs from its built JavaScript: plugins are ES modules, which oclif cannot
  // transpile on Node 20, and saying so before every command of every linked plugin is noise.
  process.env.OCLIF_DISABLE_LINKED_ESM_WARNING ??= 'true'
  // Node >= 22.1 keeps V8's compiled code on disk between runs; Node 20 has no such cache.
  nodeModule.enableCompileCache?.()

  // What `execute()` does, from @oclif/core's narrower entry points: its index loads every
  // part of oclif (parser, flags, ux...) before the command that needs them is even known.
  try {
    // Imported together: each ES module's source is read asynchronously, so one after the other
    // they would wait their turns. core-plugins: the core plugins as the build found them,
    // instead of oclif finding them again (-20 ms).
    const [{run}, {loadCliConfig}, {flush}] = await Promise.all([
      import('@oclif/core/run'),
      import('../dist/cli/core-plugins.js'),
      import('@oclif/core/flush'),
    ])
    await run(args, await loadCliConfig(fileURLToPath(new URL('..', import.meta.url))))
    await flush()
  } catch (error) {
    const {exitWithError} = await import('../dist/cli/user-facing-error.js')
    await exitWithError(error, args)
  }

  // Open handles (a language server, a socket) must not keep a finished command alive.
  process.exit(process.exitCode ?? 0)
}
