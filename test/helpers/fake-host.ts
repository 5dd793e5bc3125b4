import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {format} from 'node:util'
import {afterEach, beforeEach, vi} from 'vitest'

import {makeSandbox, type Sandbox} from './cli.js'

/** An oclif command class: static `run(argv, root)`; its instance's `run()` gives the result. */
interface RunnableCommand {
  run(argv: string[], root: string): Promise<unknown>
  prototype: {run(): Promise<unknown>}
}

/**
 * Runs a plugin's command in-process against a stand-in for the running hanzo-dev: a package
 * whose `hanzo-dev/host` export's `loadHostContext` answers what `answer()` last said. The settings rules themselves
 * are the core's, tested there and end to end in test/e2e/plugin-commands.test.ts.
 */
export function useFakeHost(prefix: string) {
  let box: Sandbox
  let root: string

  beforeEach(() => {
    box = makeSandbox(prefix)
    root = join(box.home, 'cli')
    mkdirSync(root)
    writeFileSync(
      join(root, 'package.json'),
      JSON.stringify({exports: {'./host': './host.js'}, name: 'fake-hanzo-dev', type: 'module', version: '0.0.0'}),
    )
    // A settings error is a user error as the sdk tells them apart across packages: by its mark.
    writeFileSync(
      join(root, 'host.js'),
      `import {readFileSync} from 'node:fs'
export const host = {
  apiVersion: 1,
  async loadHostContext({cwd, env}) {
    const answer = JSON.parse(readFileSync(new URL('host.json', import.meta.url), 'utf8'))
    if (answer.error) throw Object.assign(new Error(answer.error), {exitCode: 1, [Symbol.for('hanzo-dev.user-error')]: true})
    const {projectRoot = cwd, settings = {}, untrusted, warnings = []} = answer
    return {host: {configDir: '', cwd, dataDir: '', env: {...env, ...answer.env}, projectRoot, settings, ...(untrusted ? {untrusted} : {})}, warnings}
  },
}\n`,
    )
  })
  afterEach(() => box.cleanup())

  return {
    answer: (value: unknown) => writeFileSync(join(root, 'host.json'), JSON.stringify(value)),
    get box() {
      return box
    },

    /** oclif prints through console.log / console.error; vitest would take those for itself. */
    async run<C extends RunnableCommand>(command: C, argv: string[]) {
      const stdout: string[] = []
      const stderr: string[] = []
      const log = vi.spyOn(console, 'log').mockImplementation((...a) => void stdout.push(format(...a)))
      const err = vi.spyOn(console, 'error').mockImplementation((...a) => void stderr.push(format(...a)))
      const output = () => ({stderr: stderr.join('\n'), stdout: stdout.join('\n')})
      try {
        const result = (await command.run(argv, root)) as Awaited<ReturnType<C['prototype']['run']>>
        return {...output(), error: undefined, result}
      } catch (error) {
        return {...output(), error: error as Error & {oclif?: {exit?: number}}, result: undefined}
      } finally {
        log.mockRestore()
        err.mockRestore()
      }
    },
  }
}
