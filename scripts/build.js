#!/usr/bin/env node
// Compiles every workspace (tsc project references, incremental), runs the code generators,
// then regenerates each package's oclif.manifest.json so start-up never imports a command, and
// dist/core-plugins.json so start-up need not discover the core plugins (scripts/core-plugins.js).
import {execFileSync} from 'node:child_process'
import {readFileSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const bin = (name) => join(root, 'node_modules', '.bin', name)
const env = {...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true'}
const run = (cmd, args, cwd = root) => execFileSync(cmd, args, {cwd, env, stdio: 'inherit'})

run(bin('tsc'), ['-b', 'tsconfig.build.json'])
run(process.execPath, [join(root, 'scripts', 'generate-validators.js')])

const {workspaces} = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
for (const dir of ['.', ...workspaces]) {
  const pjson = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'))
  if (!pjson.oclif) continue
  run(bin('oclif'), ['manifest'], join(root, dir))
  sortCommands(join(root, dir, 'oclif.manifest.json'))
}

run(process.execPath, [join(root, 'scripts', 'core-plugins.js')])

// oclif lists commands in the order the file system returns them, which differs between
// machines; sorted, the committed manifest is the same wherever it is built.
function sortCommands(file) {
  const manifest = JSON.parse(readFileSync(file, 'utf8'))
  manifest.commands = Object.fromEntries(
    Object.entries(manifest.commands).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  )
  writeFileSync(file, JSON.stringify(manifest, null, 2) + '\n')
}
