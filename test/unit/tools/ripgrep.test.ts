import {spawnSync} from 'node:child_process'
import {describe, expect, it} from 'vitest'

import {fileNameGlob, ripgrep, runRipgrep} from '../../../src/adapters/tools/ripgrep.js'
import {rejectionOf} from '../../helpers/thrown.js'
import {useTempWorkspace, writeTree} from './tool-harness.js'

describe('the file names ripgrep may narrow a walk to', () => {
  it('is the last segment of a glob when picomatch and ripgrep read it alike', () => {
    expect(fileNameGlob('**/package.json')).toBe('package.json')
    expect(fileNameGlob('*.json')).toBe('*.json')
    expect(fileNameGlob('src/**/*.{ts,tsx}')).toBe('*.{ts,tsx}')
    expect(fileNameGlob('{src,test}/a?.ts')).toBe('a?.ts')
    expect(fileNameGlob('docs/read me.md')).toBe('read me.md')
  })

  it('is nothing when it cannot tell (so every file is looked at)', () => {
    for (const glob of [
      'src/**',
      '**',
      'a/**.ts',
      '[ab].ts',
      '!x.ts',
      '+(a|b).ts',
      'a\\*.ts',
      '{a/b,c}.ts',
      'x:y.ts',
      '*.{ts}',
      'dir/',
    ])
      expect(fileNameGlob(glob), glob).toBeUndefined()
  })
})

describe('running ripgrep', () => {
  const dirs = useTempWorkspace()
  const rg = ripgrep()

  it.runIf(rg)(
    'kills it when the search is cancelled while it runs, and when a reader of its output throws',
    async () => {
      writeTree(
        dirs.workspace,
        Object.fromEntries(Array.from({length: 3000}, (_, i) => [`d${i % 30}/file-with-a-long-name-${i}.txt`, ''])),
      )
      const controller = new AbortController()
      const cancelled = runRipgrep(rg!, ['--files', '.'], dirs.workspace, controller.signal, () =>
        controller.abort(new Error('stop')),
      )
      expect((await rejectionOf(cancelled)).message).toBe('stop')
      const failing = runRipgrep(rg!, ['--files', '.'], dirs.workspace, new AbortController().signal, () => {
        throw new Error('bad record')
      })
      expect((await rejectionOf(failing)).message).toBe('bad record')
      expect(spawnSync('pgrep', ['-f', `rg --files`], {encoding: 'utf8'}).stdout).toBe('')
    },
  )

  it.runIf(rg)('gives no output when ripgrep refuses the arguments, so the built-in path searches', async () => {
    expect(await runRipgrep(rg!, ['--regexp', '(', '.'], dirs.workspace, new AbortController().signal)).toBeUndefined()
  })
})
