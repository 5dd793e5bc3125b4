import {ESLint} from 'eslint'
import {describe, expect, it} from 'vitest'

import {REPO_ROOT} from '../../helpers/cli.js'

/**
 * The layering the linter keeps ([host-port] item 5): each case is a file that would break it,
 * linted as if it sat at `path` with the repository's own config (the type-aware rules off: the
 * file exists only here).
 */
const eslint = new ESLint({
  cwd: REPO_ROOT,
  overrideConfig: {
    languageOptions: {parserOptions: {project: null, projectService: false}},
    rules: {
      '@typescript-eslint/await-thenable': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
    },
  },
})

async function problems(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, {filePath: `${REPO_ROOT}/${path}`})
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`)
}

describe('the layers, as the linter keeps them', () => {
  it('keeps process globals, oclif, child processes, adapters and the CLI out of the core', async () => {
    expect(await problems('src/core/agent/x.ts', 'export const cwd = process.cwd()\n')).toEqual([
      expect.stringMatching(/^no-restricted-globals: .*the core reads no process globals/),
    ])
    for (const from of [
      '@oclif/core',
      'node:child_process',
      '../../adapters/style.js',
      '../../cli/run-output.js',
      '@hanzo-dev/plugin-lsp',
    ]) {
      expect(await problems('src/core/agent/x.ts', `import {x} from '${from}'\nexport {x}\n`), from).toEqual([
        expect.stringMatching(/^@typescript-eslint\/no-restricted-imports: /),
      ])
    }

    expect(await problems('src/core/agent/x.ts', "import {toolOk} from '@hanzo-dev/sdk'\nexport {toolOk}\n")).toEqual([
      expect.stringMatching(/the core imports only the sdk's types/),
    ])
    expect(
      await problems(
        'src/core/agent/x.ts',
        "import type {ToolResult} from '@hanzo-dev/sdk'\nimport {toolOk} from '@hanzo-dev/sdk/tools'\nexport const ok: ToolResult = toolOk('')\n",
      ),
    ).toEqual([])
  })

  it('keeps the CLI, the UI and the servers out of the adapters', async () => {
    for (const from of ['../cli/spinner.js', '../../ui/chat.js', '../server/app/start.js']) {
      expect(await problems('src/adapters/auth/x.ts', `import {x} from '${from}'\nexport {x}\n`), from).toEqual([
        expect.stringMatching(/adapters sit under the CLI/),
      ])
    }
  })

  it('lets a plugin reach the host only through @hanzo-dev/sdk', async () => {
    for (const from of ['../../../src/host.js', 'hanzo-dev', 'hanzo-dev/host', '@hanzo-dev/plugin-sandbox']) {
      expect(await problems('plugins/lsp/src/x.ts', `import {x} from '${from}'\nexport {x}\n`), from).not.toEqual([])
    }

    expect(
      await problems(
        'plugins/lsp/src/x.ts',
        "import {loadHost} from '@hanzo-dev/sdk'\nimport {y} from './y.js'\nexport {loadHost, y}\n",
      ),
    ).toEqual([])
  })
})
