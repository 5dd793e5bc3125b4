import {describe, expect, it} from 'vitest'

import {chooseEnforcement, mechanismsToTry, readSandboxConfig} from '../src/isolation.js'

describe('readSandboxConfig', () => {
  it('defaults to auto (host-sandbox.ts decides what it becomes), with the network on', () => {
    expect(readSandboxConfig(undefined)).toEqual({
      defaulted: true,
      settings: {allowed_paths: [], mode: 'auto', network: true},
    })
    expect(readSandboxConfig({})).toEqual({defaulted: true, settings: {allowed_paths: [], mode: 'auto', network: true}})
  })

  it('keeps an explicit mode and the network setting', () => {
    expect(readSandboxConfig({allowed_paths: ['/tmp/x'], mode: 'allowlist', network: false})).toEqual({
      defaulted: false,
      settings: {allowed_paths: ['/tmp/x'], mode: 'allowlist', network: false},
    })
    expect(readSandboxConfig({mode: 'auto'})).toEqual({
      defaulted: false,
      settings: {allowed_paths: [], mode: 'auto', network: true},
    })
  })

  it.each([
    ['strict', {mode: 'strict'}, /sandbox.mode "strict" is not one of auto, off, workspace, allowlist/],
    ['a string section', 'workspace', /"sandbox" must be an object/],
    ['paths that are not a list', {allowed_paths: '/tmp'}, /allowed_paths must be a list/],
    ['an empty path', {allowed_paths: ['']}, /allowed_paths must be a list/],
    ['a network that is not a boolean', {network: 'off'}, /sandbox.network must be true or false/],
  ])('rejects %s', (_name, raw, problem) => {
    expect(readSandboxConfig(raw)).toEqual({problem: expect.stringMatching(problem)})
  })
})

describe('mechanismsToTry', () => {
  it('tries bubblewrap then unshare, unless HANZO_SANDBOX_MECHANISM forces one or none', () => {
    expect(mechanismsToTry({})).toEqual(['bwrap', 'unshare'])
    expect(mechanismsToTry({HANZO_SANDBOX_MECHANISM: 'unshare'})).toEqual(['unshare'])
    expect(mechanismsToTry({HANZO_SANDBOX_MECHANISM: 'path-checks'})).toEqual([])
    expect(mechanismsToTry({HANZO_SANDBOX_MECHANISM: 'docker'})).toEqual({
      problem: 'HANZO_SANDBOX_MECHANISM=docker is not one of bwrap, unshare, path-checks',
    })
  })
})

describe('chooseEnforcement', () => {
  it('prefers bubblewrap, then unshare, then path checks; off needs nothing', () => {
    expect(chooseEnforcement('off', {bwrap: true, unshare: true})).toBe('none')
    expect(chooseEnforcement('workspace', {bwrap: true, unshare: true})).toBe('bwrap')
    expect(chooseEnforcement('allowlist', {bwrap: false, unshare: true})).toBe('unshare')
    expect(chooseEnforcement('workspace', {bwrap: false, unshare: false})).toBe('path-checks')
  })
})
