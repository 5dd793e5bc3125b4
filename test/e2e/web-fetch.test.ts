import {mkdirSync, writeFileSync} from 'node:fs'
import {createServer, type Server} from 'node:http'
import type {AddressInfo} from 'node:net'
import {join} from 'node:path'
import {afterEach, describe, expect, it} from 'vitest'

import type {Script} from '../../src/testing/fake-model/script.js'
import {type FakeModel, startFakeModel} from '../../src/testing/fake-model/server.js'
import {runCli, useSandboxDirs} from '../helpers/cli.js'

// Issue 39, item 3: the model fetches a page under the user's domain rules.

describe('web_fetch in a run', () => {
  const dirs = useSandboxDirs('hanzo-webfetch-', 'project')
  let model: FakeModel | undefined
  let site: Server | undefined
  afterEach(async () => {
    await model?.close()
    await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()))
    model = undefined
    site = undefined
  })

  async function setUp(permissions: Record<string, string>, script: (base: string) => Script) {
    site = createServer((request, response) => {
      if (request.url === '/leave') response.writeHead(302, {location: 'https://tracker.test/x'}).end()
      else response.setHeader('content-type', 'text/html').end('<h1>Release notes</h1><p>Version <b>2</b> is out.</p>')
    })
    await new Promise<void>((resolve) => site!.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`
    model = await startFakeModel(script(base))
    mkdirSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo'), {recursive: true})
    writeFileSync(join(dirs.box.env.XDG_CONFIG_HOME, 'hanzo', 'settings.json'), JSON.stringify({permissions}))
    return (...args: string[]) =>
      runCli(['run', 'what is new?', '--base-url', model!.url, ...args], {cwd: dirs.project, env: dirs.box.env})
  }

  it('gives the model a page allowed by a domain rule as Markdown; a denied domain is refused, before and after a redirect', async () => {
    const run = await setUp(
      {'web_fetch(domain:127.0.0.1)': 'allow', 'web_fetch(domain:tracker.test)': 'deny'},
      (base) => ({
        turns: [
          {
            expect: {tools_include: ['web_fetch']},
            tool_calls: [{arguments: {url: `${base}/notes`}, name: 'web_fetch'}],
          },
          {
            expect: {tool_result_contains: '# Release notes\n\nVersion **2** is out.'},
            tool_calls: [{arguments: {url: 'https://tracker.test/pixel'}, name: 'web_fetch'}],
          },
          {
            expect: {tool_result_contains: '"web_fetch(domain:tracker.test)" is denied'},
            tool_calls: [{arguments: {url: `${base}/leave`}, name: 'web_fetch'}],
          },
          {
            expect: {
              tool_result_contains: `${base}/leave redirects to https://tracker.test/x: "web_fetch(domain:tracker.test)" is denied`,
            },
            text: 'Version 2 is out.',
          },
        ],
      }),
    )
    const result = await run()
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Version 2 is out.')
  })

  it('refuses a loopback address no rule names, even when the session allows every call', async () => {
    const run = await setUp({}, (base) => ({
      turns: [
        {tool_calls: [{arguments: {url: `${base}/notes`}, name: 'web_fetch'}]},
        {
          expect: {tool_result_contains: 'is a private, loopback or link-local address (127.0.0.1)'},
          text: 'Could not read it.',
        },
      ],
    }))
    const result = await run('--permission-mode', 'allow-all')
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.stdout).toBe('Could not read it.')
  })
})
