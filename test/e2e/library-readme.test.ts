import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'

import {startFakeModel} from '../../src/testing/fake-model/server.js'
import {REPO_ROOT} from '../helpers/cli.js'

/** The first code block of README.md's "## Library" section, exactly as a reader copies it. */
function libraryExample(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')
  const section = readme.slice(readme.indexOf('\n## Library\n')).split(/\n## /)[1]
  const block = /```ts\n([\s\S]*?)\n```/.exec(section)?.[1]
  if (!block) throw new Error('README.md has no ts code block under "## Library"')
  return block
}

describe("README.md's library example", () => {
  it('runs as written against a local OpenAI-compatible server (here the scripted one, named by HANZO_BASE_URL)', async () => {
    const model = await startFakeModel({
      turns: [
        {
          expect: {last_user_contains: 'Tokyo', system_contains: 'get_weather', tools_include: ['get_weather']},
          tool_calls: [{arguments: {city: 'Tokyo'}, name: 'get_weather'}],
        },
        {
          expect: {tool_result_contains: 'The weather in Tokyo is sunny.'},
          text: '<think>easy</think>It is sunny in Tokyo.',
        },
      ],
    })
    try {
      // From the repository's root, `import ... from 'hanzo-dev'` is the built package's own entry (dist/).
      const run = await execa(process.execPath, ['--input-type=module', '--eval', libraryExample()], {
        cwd: REPO_ROOT,
        env: {HANZO_BASE_URL: model.url},
        reject: false,
      })
      expect(run.stderr).toBe('')
      expect(run.stdout).toBe('It is sunny in Tokyo.')
      expect(model.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions'])
      expect(model.requests[0].body).toMatchObject({
        model: 'qwen3:0.6b',
        tools: [
          {
            function: {
              name: 'get_weather',
              parameters: {properties: {city: {type: 'string'}}, required: ['city'], type: 'object'},
            },
            type: 'function',
          },
        ],
      })
    } finally {
      await model.close()
    }
  })
})
