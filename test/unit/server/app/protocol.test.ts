import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'

import {parseParams, parsePermissionAnswer, protocolJsonSchema} from '../../../../src/server/app/protocol.js'
import {REPO_ROOT} from '../../../helpers/cli.js'

describe('the app-server protocol', () => {
  it('is the JSON Schema committed in docs/app-server.schema.json (regenerate: hanzo-dev app-server --print-schema)', () => {
    const committed = JSON.parse(readFileSync(join(REPO_ROOT, 'docs', 'app-server.schema.json'), 'utf8'))
    expect(protocolJsonSchema()).toEqual(committed)
  })

  it('names every message type once, under $defs', () => {
    const defs = Object.keys(protocolJsonSchema().$defs as object)
    expect(defs).toEqual(
      expect.arrayContaining([
        'SessionStartParams',
        'TurnItem',
        'TurnCompletedParams',
        'PermissionRequestParams',
        'PermissionRequestResult',
      ]),
    )
  })

  it('says which params are wrong, and refuses unknown keys', () => {
    expect(parseParams('turn/start', {sessionId: 's1', input: 'hi'})).toEqual({
      ok: true,
      value: {input: 'hi', sessionId: 's1'},
    })
    expect(parseParams('session/start', undefined)).toEqual({ok: true, value: {}})
    expect(parseParams('turn/start', {sessionId: 's1'})).toEqual({
      message: 'Invalid params for turn/start: input: Invalid input: expected string, received undefined',
      ok: false,
    })
    expect(parseParams('session/start', {permissionMode: 'yolo'})).toMatchObject({
      message: expect.stringContaining('permissionMode: Invalid option'),
      ok: false,
    })
    expect(parseParams('session/list', {limit: 5, extra: true})).toMatchObject({
      message: expect.stringContaining('Unrecognized key: "extra"'),
      ok: false,
    })
  })

  it('reads a permission answer only when it is one', () => {
    expect(parsePermissionAnswer({decision: 'allow_session'})).toEqual({decision: 'allow_session'})
    expect(parsePermissionAnswer({decision: 'deny', reason: 'no'})).toEqual({decision: 'deny', reason: 'no'})
    expect(parsePermissionAnswer({decision: 'yes'})).toBeUndefined()
    expect(parsePermissionAnswer('allow')).toBeUndefined()
  })
})
