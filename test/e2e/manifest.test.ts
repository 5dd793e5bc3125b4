import {existsSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {makeSandbox, REPO_ROOT, type Sandbox} from '../helpers/cli.js'

// What `oclif manifest` does (oclif 4, src/commands/manifest.ts): load the package as a core
// plugin ignoring its manifest, so every command is imported and described afresh; run in
// a child process so the commands load as they do in the CLI, with the CLI's @oclif/core.
const GENERATE = `
import {Plugin} from '@oclif/core'
const plugin = new Plugin({errorOnManifestCreate: true, ignoreManifest: true, respectNoCacheDefault: true, root: process.argv[1], type: 'core'})
await plugin.load()
process.stdout.write(JSON.stringify(plugin.manifest))
`

const rootPjson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'))
const packages = ['.', ...(rootPjson.workspaces as string[])].filter(
  (dir) => JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')).oclif,
)

describe('committed oclif manifests', () => {
  let box: Sandbox
  beforeEach(() => {
    box = makeSandbox()
  })
  afterEach(() => box.cleanup())

  it('covers the root and every plugin workspace', () => {
    expect(packages).toContain('.')
    expect(packages.length).toBeGreaterThan(6)
  })

  it.each(packages)('%s/oclif.manifest.json is what `oclif manifest` generates now', async (dir) => {
    const file = join(REPO_ROOT, dir, 'oclif.manifest.json')
    expect(existsSync(file), `${file} is missing: run \`npm run build\` and commit it`).toBe(true)

    const {exitCode, stderr, stdout} = await execa(
      process.execPath,
      ['--input-type=module', '-e', GENERATE, join(REPO_ROOT, dir)],
      {
        cwd: REPO_ROOT,
        // As `npm run build` runs it: vitest's NODE_ENV=test would make oclif look for TS sources.
        env: {...box.env, NODE_ENV: 'production'},
        reject: false,
      },
    )
    expect(exitCode, stderr).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8')), `${file} is stale: run \`npm run build\` and commit it`).toEqual(
      JSON.parse(stdout),
    )
  })
})
