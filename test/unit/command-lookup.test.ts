import {describe, expect, it} from 'vitest'

import {promptShortcut, resolveUnknownCommand} from '../../src/core/command-lookup.js'

const names = {
  commands: [
    'auth:login',
    'auth:logout',
    'config:get',
    'config:list',
    'doctor',
    'plugins',
    'plugins:link',
    'run',
    'sessions:show',
    'trust',
  ],
  topics: ['auth', 'config', 'plugins', 'sessions'],
}
const resolve = (line: string) => resolveUnknownCommand(line.split(' '), names)

describe('resolveUnknownCommand', () => {
  it('corrects a near miss word by word, keeping the rest as arguments', () => {
    expect(resolve('confg get model --json')).toEqual({
      argv: ['model', '--json'],
      id: 'config:get',
      kind: 'typo',
      topic: false,
      typed: 'confg get',
    })
    expect(resolve('auth logn extra')).toEqual({
      argv: ['extra'],
      id: 'auth:login',
      kind: 'typo',
      topic: false,
      typed: 'auth logn',
    })
    expect(resolve('rn what')).toMatchObject({argv: ['what'], id: 'run', kind: 'typo'})
    expect(resolve('plugins lnk')).toMatchObject({id: 'plugins:link', kind: 'typo'})
  })

  it('suggests a topic when the near miss is one', () => {
    expect(resolve('sesions')).toEqual({argv: [], id: 'sessions', kind: 'typo', topic: true, typed: 'sesions'})
  })

  it('runs a command given words it does not take, so its parser names them', () => {
    expect(resolve('doctor extra')).toEqual({argv: ['extra'], id: 'doctor', kind: 'stray'})
    expect(resolve('config list extra --json')).toEqual({argv: ['extra', '--json'], id: 'config:list', kind: 'stray'})
    // `login` is a command: `x` is not a typo of `logout`, however close the whole line is.
    expect(resolve('auth login x')).toEqual({argv: ['x'], id: 'auth:login', kind: 'stray'})
    expect(resolve('plugins xyz')).toEqual({argv: ['xyz'], id: 'plugins', kind: 'stray'})
  })

  it('suggests nothing far from what was typed, and says which topic it got to', () => {
    expect(resolve('xyzzy')).toEqual({kind: 'unknown', topic: undefined, typed: 'xyzzy'})
    expect(resolve('config xyzzy')).toEqual({kind: 'unknown', topic: 'config', typed: 'config xyzzy'})
    expect(resolve('--bogus')).toEqual({kind: 'unknown', topic: undefined, typed: '--bogus'})
  })
})

describe('promptShortcut', () => {
  it('runs -p / --print headless with the other words, wherever the flag is (not after --)', () => {
    expect(promptShortcut(['-p', 'fix it', '--model', 'm'])).toEqual({argv: ['fix it', '--model', 'm'], id: 'run'})
    expect(promptShortcut(['--model', 'm', '--print', 'fix'])).toEqual({argv: ['--model', 'm', 'fix'], id: 'run'})
    expect(promptShortcut(['--model', 'm', '--', '-p'])).toBeUndefined()
  })

  it('takes a first word with a space for a prompt; one word stays a command', () => {
    expect(promptShortcut(['fix the bug', '--model', 'm'])).toEqual({argv: ['fix the bug', '--model', 'm'], id: 'chat'})
    expect(promptShortcut(['chta'])).toBeUndefined()
    expect(promptShortcut(['  chta '])).toBeUndefined()
    expect(promptShortcut(['--bogus', 'a b'])).toBeUndefined()
  })
})
