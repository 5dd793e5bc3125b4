import {mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterEach, beforeEach, describe, expect, it} from 'vitest'

import {FileCredentialStore} from '../../../src/adapters/credentials/file-store.js'
import type {Credential, OAuthCredential} from '../../../src/core/auth/credentials.js'
import {type Refresher, validCredential} from '../../../src/core/auth/refresh.js'
import {UserError} from '../../../src/core/errors.js'

const NOW = 1_700_000_000_000
const CANARY = 'CANARY-SECRET-5f2e'
const now = () => NOW
const expired: OAuthCredential = {
  accessToken: `at-${CANARY}`,
  expiresAt: NOW - 1000,
  refreshToken: `rt-${CANARY}`,
  type: 'oauth',
}

describe('validCredential', () => {
  let dir: string
  let store: FileCredentialStore
  let refreshes: OAuthCredential[]
  const rotate: Refresher = async (credential) => {
    refreshes.push(credential)
    return {accessToken: 'at-new', expiresAt: NOW + 3_600_000, refreshToken: 'rt-new', type: 'oauth'}
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hanzo-refresh-'))
    store = new FileCredentialStore({path: join(dir, 'hanzo', 'credentials.json')})
    refreshes = []
  })
  afterEach(() => rmSync(dir, {force: true, recursive: true}))

  it('returns a valid credential as stored, and nothing for an unknown provider', async () => {
    const valid: Credential = {accessToken: 'at', expiresAt: NOW + 3_600_000, type: 'oauth'}
    await store.store('hanzo', valid)
    expect(await validCredential(store, 'hanzo', rotate, {now})).toEqual(valid)
    expect(await validCredential(store, 'openai', rotate, {now})).toBeUndefined()
    expect(refreshes).toEqual([])
  })

  it('refreshes an expired credential once and persists the rotation', async () => {
    await store.store('hanzo', expired)
    const fresh = await validCredential(store, 'hanzo', rotate, {now})
    expect(fresh).toMatchObject({accessToken: 'at-new', refreshToken: 'rt-new'})
    expect(await store.get('hanzo')).toEqual(fresh)
    expect(refreshes).toEqual([expired])
    expect(await validCredential(store, 'hanzo', rotate, {now})).toEqual(fresh)
    expect(refreshes).toHaveLength(1)
  })

  it('keeps the refresh token when the server does not rotate it', async () => {
    await store.store('hanzo', expired)
    const fresh = await validCredential(store, 'hanzo', async () => ({accessToken: 'at-new', type: 'oauth'}), {now})
    expect(fresh).toEqual({accessToken: 'at-new', refreshToken: expired.refreshToken, type: 'oauth'})
  })

  it('asks to log in when there is no refresh token', async () => {
    await store.store('anthropic', {...expired, refreshToken: undefined})
    const error = await validCredential(store, 'anthropic', rotate, {now}).catch((error_: unknown) => error_)
    expect(error).toBeInstanceOf(UserError)
    expect((error as UserError).hint).toBe('run hanzo-dev auth login --provider anthropic')
  })

  it('explains invalid_grant as a revoked or reused login, without tokens', async () => {
    await store.store('hanzo', expired)
    const refresh: Refresher = async (credential) => {
      throw Object.assign(new Error(`invalid_grant for ${credential.refreshToken}`), {code: 'invalid_grant'})
    }

    const error = (await validCredential(store, 'hanzo', refresh, {now}).catch(
      (error_: unknown) => error_,
    )) as UserError
    expect(error).toBeInstanceOf(UserError)
    expect(error.message).toMatch(/revoked|already used/)
    expect(error.hint).toBe('run hanzo-dev auth login --provider hanzo')
    expect(`${error.message} ${error.hint} ${String(error.cause)}`).not.toContain(CANARY)
    expect(await store.get('hanzo')).toEqual(expired)
  })

  it('cuts the tokens out of any other refresh failure', async () => {
    await store.store('hanzo', expired)
    const refresh: Refresher = async (credential) => {
      throw new Error(`POST /token refresh_token=${credential.refreshToken}&access=${credential.accessToken}: 503`)
    }

    const error = (await validCredential(store, 'hanzo', refresh, {now}).catch(
      (error_: unknown) => error_,
    )) as UserError
    expect(error).toBeInstanceOf(UserError)
    expect(error.message).toContain('503')
    expect(error.message).not.toContain(CANARY)
    expect(error.cause).toBeUndefined()
  })
})
