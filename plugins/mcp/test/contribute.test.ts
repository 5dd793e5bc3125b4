import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {type HostContext, PLUGIN_API_VERSION} from '@hanzo-dev/sdk'
import {describe, expect, it} from 'vitest'

import {host as hostApi} from '../../../src/host.js'

import {useSandboxDirs} from '../../../test/helpers/cli.js'
import contribute from '../src/hooks/contribute.js'

const dirs = useSandboxDirs('hanzo-mcp-contribute-', 'project')

describe('hanzo:contribute', () => {
  it('starts no server for a session that offers no MCP tool (a commit message)', async () => {
    const marker = join(dirs.project, 'started')
    const host = (tools: HostContext['tools']): HostContext => ({
      apiVersion: PLUGIN_API_VERSION,
      configDir: '',
      cwd: dirs.project,
      dataDir: dirs.project,
      env: {PATH: process.env.PATH},
      projectRoot: dirs.project,
      settings: {mcp_servers: {probe: {args: ['-c', `touch ${marker}`], command: 'sh'}}},
      signal: AbortSignal.abort(),
      tools,
    })
    for (const tools of ['none', ['fs_read', 'exec']] as const) {
      expect(await contribute({hostApi, host: host(tools)})).toEqual({apiVersion: PLUGIN_API_VERSION, notices: []})
    }

    expect(existsSync(marker)).toBe(false)
  })
})
