import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

import {isUserError, loadHost, PLUGIN_API_VERSION} from '../src/index.js'

const dir = mkdtempSync(join(tmpdir(), 'hanzo-sdk-host-'))
afterAll(() => rmSync(dir, {force: true, recursive: true}))

/** A stand-in for an installed hanzo-dev at `name`: its package.json, and its `hanzo-dev/host` module when given. */
function hanzoDev(name: string, host?: string): {root: string} {
  const root = join(dir, name)
  mkdirSync(root)
  writeFileSync(
    join(root, 'package.json'),
    JSON.stringify({
      name: 'hanzo-dev',
      type: 'module',
      version: '9.9.9',
      ...(host === undefined ? {} : {exports: {'./host': './host.js'}}),
    }),
  )
  if (host !== undefined) writeFileSync(join(root, 'host.js'), host)
  return {root}
}

describe('loadHost', () => {
  it("loads the running hanzo-dev's Host once per root", async () => {
    const config = hanzoDev('current', `export const host = {apiVersion: ${PLUGIN_API_VERSION}, version: '9.9.9'}\n`)
    const host = await loadHost(config)
    expect(host).toMatchObject({apiVersion: PLUGIN_API_VERSION, version: '9.9.9'})
    expect(await loadHost(config)).toBe(host)
  })

  it('refuses a hanzo-dev on another contract version, saying what to update', async () => {
    const config = hanzoDev('other', `export const host = {apiVersion: ${PLUGIN_API_VERSION + 1}}\n`)
    const error = await loadHost(config).catch((error: unknown) => error)
    expect(isUserError(error)).toBe(true)
    expect(error).toMatchObject({
      hint: 'update the plugin or hanzo-dev so that they match',
      message: `this plugin needs hanzo-dev's plugin contract ${PLUGIN_API_VERSION}, and the hanzo-dev at ${config.root} has ${PLUGIN_API_VERSION + 1}`,
    })
  })

  it('refuses a hanzo-dev too old to have a Host', async () => {
    const config = hanzoDev('old')
    await expect(loadHost(config)).rejects.toThrow(
      `the hanzo-dev at ${config.root} (9.9.9) has no plugin host; update hanzo-dev`,
    )
  })
})

describe('isUserError', () => {
  it('knows a user error made by another copy of the sdk by its mark, not its name', () => {
    expect(isUserError(Object.assign(new Error('x'), {[Symbol.for('hanzo-dev.user-error')]: true}))).toBe(true)
    expect(isUserError(Object.assign(new Error('x'), {name: 'UserError'}))).toBe(false)
  })
})
