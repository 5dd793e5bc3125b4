import {join} from 'node:path'
import {type HostContext, PLUGIN_API_VERSION, toolOk} from '@hanzo-dev/sdk'
import {describe, expect, it, vi} from 'vitest'

import {host as hostApi} from '../../../src/host.js'

import {useSandboxDirs} from '../../../test/helpers/cli.js'
import contribute from '../src/hooks/contribute.js'
import {script} from './hook-fixtures.js'

const dirs = useSandboxDirs('hanzo-hooks-contribute-', 'project')

const host = (hooks: unknown): HostContext => ({
  apiVersion: PLUGIN_API_VERSION,
  configDir: '',
  cwd: dirs.project,
  dataDir: '',
  env: {PATH: process.env.PATH},
  projectRoot: dirs.project,
  settings: {hooks},
  // Aborted as soon as every plugin has answered, as the host does: hooks must not depend on it.
  signal: AbortSignal.abort(),
})

describe('hanzo:contribute', () => {
  it('answers nothing when no hooks are configured', async () => {
    expect(await contribute({hostApi, host: host(undefined)})).toBeUndefined()
  })

  it('contributes the hooks middleware and the session events', async () => {
    const deny = script(dirs.project, 'deny.sh', 'echo nope >&2\nexit 2')
    const contribution = await contribute({
      hostApi,
      host: host([
        {command: deny, event: 'pre_tool_use', tool_pattern: 'exec'},
        {command: deny, event: 'stop'},
      ]),
    })
    expect(contribution).toMatchObject({apiVersion: PLUGIN_API_VERSION, middleware: [{name: 'hooks'}]})
    const execute = contribution!.middleware![0].wrap(async () => toolOk('ran'))
    const context = {cwd: dirs.project, sessionId: 's', signal: new AbortController().signal}
    expect(await execute({input: {}, name: 'exec'}, context)).toMatchObject({
      error: 'Hook hooks[0] pre_tool_use denied this exec call: nope',
      is_error: true,
    })
    expect(await execute({input: {}, name: 'fs_read'}, context)).toEqual(toolOk('ran'))
    expect(await contribution!.onSessionEvent!({cwd: dirs.project, event: 'stop', sessionId: 's'})).toEqual({
      decision: 'deny',
      reason: 'hooks[1] stop: nope',
    })
  })

  it('reports an invalid hook on stderr and runs the valid ones', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      const contribution = await contribute({
        hostApi,
        host: host([
          {command: 'true', event: 'on_save'},
          {command: join(dirs.project, 'none'), event: 'stop', fail_open: true},
        ]),
      })
      expect(write).toHaveBeenCalledWith(
        expect.stringMatching(
          /^hanzo-dev hooks: hooks\[0\] on_save: unknown event "on_save".*; this hook is not run\n$/,
        ),
      )
      expect(await contribution!.onSessionEvent!({cwd: dirs.project, event: 'stop', sessionId: 's'})).toEqual({
        decision: 'allow',
      })
      expect(write).toHaveBeenCalledWith(
        expect.stringMatching(/^hanzo-dev hooks: hooks\[1\] stop exited with code 127 .*fail_open is set/),
      )
    } finally {
      write.mockRestore()
    }
  })
})
