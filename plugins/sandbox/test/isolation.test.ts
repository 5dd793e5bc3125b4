import {describe, expect, it} from 'vitest'

import {chooseEnforcement, mechanismsToTry, readSandboxConfig} from '../src/isolation.js'

describe('readSandboxConfig', () => {
  it('defaults to workspace on a host and off in a container (HIP-301 §10), with the network on', () => {
    expect(readSandboxConfig(undefined, null)).toEqual({config: {allowed_paths: [], mode: 'workspace', network: true}, defaulted: true})
    expect(readSandboxConfig({}, 'docker')).toEqual({config: {allowed_paths: [], mode: 'off', network: true}, defaulted: true})
  })

  it('keeps an explicit mode, also inside a container, and the network setting', () => {
    expect(readSandboxConfig({allowed_paths: ['/tmp/x'], mode: 'allowlist', network: false}, 'k8s')).toEqual({
      config: {allowed_paths: ['/tmp/x'], mode: 'allowlist', network: false},
      defaulted: false,
    })
  })

  it.each([
    ['strict', {mode: 'strict'}, /sandbox.mode "strict" is not one of off, workspace, allowlist/],
    ['a string section', 'workspace', /"sandbox" must be an object/],
    ['paths that are not a list', {allowed_paths: '/tmp'}, /allowed_paths must be a list/],
    ['an empty path', {allowed_paths: ['']}, /allowed_paths must be a list/],
    ['a network that is not a boolean', {network: 'off'}, /sandbox.network must be true or false/],
  ])('rejects %s', (_name, raw, problem) => {
    expect(readSandboxConfig(raw, null)).toEqual({problem: expect.stringMatching(problem)})
  })
})

describe('mechanismsToTry', () => {
  it('tries bubblewrap then unshare, unless HANZO_SANDBOX_MECHANISM forces one or none', () => {
    expect(mechanismsToTry({})).toEqual(['bwrap', 'unshare'])
    expect(mechanismsToTry({HANZO_SANDBOX_MECHANISM: 'unshare'})).toEqual(['unshare'])
    expect(mechanismsToTry({HANZO_SANDBOX_MECHANISM: 'path-checks'})).toEqual([])
    expect(mechanismsToTry({HANZO_SANDBOX_MECHANISM: 'docker'})).toEqual({problem: 'HANZO_SANDBOX_MECHANISM=docker is not one of bwrap, unshare, path-checks'})
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
