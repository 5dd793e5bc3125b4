import {readFileSync} from 'node:fs'

import {type Host, PLUGIN_API_VERSION} from '@hanzo-dev/sdk'

import type {OpenAgentSessionOptions} from './adapters/agent-session/index.js'
import {writeFileAtomic} from './adapters/atomic-write.js'
import {Backoff} from './core/protocol/backoff.js'
import {normalizeMcpToolName, parseMcpToolName} from './core/protocol/mcp-tool-name.js'

/**
 * The {@link Host} port of @hanzo-dev/sdk, implemented once (ARCHITECTURE.md, "One typed door"):
 * what plugins' hooks get as `hostApi` and their commands from `loadHost` (this module is the
 * package's `hanzo-dev/host` export). It points at the modules that do the work, the heavy ones
 * imported on first use: a plugin that asks for one thing loads only that.
 */
export const host: Host = {
  apiVersion: PLUGIN_API_VERSION,
  createBackoff: (options) => new Backoff(options),
  async editSetting(options) {
    const {editSetting} = await import('./cli/settings-target.js')
    return editSetting(options)
  },
  async isTrusted(projectRoot, env) {
    const {loadSettings} = await import('./adapters/host-context.js')
    const {status} = (await loadSettings({cwd: projectRoot, env})).trust
    return status === 'trusted' || status === 'not-needed'
  },
  async loadHostContext(options) {
    const {loadHostContext} = await import('./adapters/host-context.js')
    return loadHostContext(options)
  },
  async loginToResource(login, options) {
    const {loginToResource} = await import('./cli/resource-login.js')
    return loginToResource(login, options)
  },
  async logoutResource(login) {
    const {logoutResource} = await import('./cli/resource-login.js')
    return logoutResource(login)
  },
  normalizeMcpToolName,
  async openAgentSession(options) {
    const {openAgentSession} = await import('./adapters/agent-session/index.js')
    // The sdk keeps oclif's Config opaque (it imports no oclif): what a plugin passes is its command's.
    return openAgentSession(options as OpenAgentSessionOptions)
  },
  output: {
    async readTask(argument, stdin) {
      const {readTask} = await import('./cli/run-task.js')
      return readTask(argument, stdin)
    },
    async runReport(format, {stderr, stdout}, summary, options) {
      const [{RunOutput}, {makeStyle}, {liveOutput}] = await Promise.all([
        import('./cli/run-output.js'),
        import('./adapters/style.js'),
        import('./cli/run-live.js'),
      ])
      const style = makeStyle(stderr)
      const live = format === 'text' ? liveOutput(stdout, stderr, style, {answer: false}) : undefined
      return new RunOutput(format, {live, stderr, stdout, style}, summary, options)
    },
    async spinner(stream, text) {
      const [{makeStyle}, {terminalSpinner}] = await Promise.all([
        import('./adapters/style.js'),
        import('./cli/spinner.js'),
      ])
      return terminalSpinner(stream, makeStyle(stream), text)
    },
  },
  parseMcpToolName,
  async resourceAccessToken(login) {
    const {resourceAccessToken} = await import('./cli/resource-login.js')
    return resourceAccessToken(login)
  },
  version: (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {version: string}).version,
  writeFileAtomic,
}
