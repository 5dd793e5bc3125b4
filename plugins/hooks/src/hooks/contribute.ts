import {defineContributeHook, PLUGIN_API_VERSION, printable} from '@hanzo-dev/sdk'

import {HookRunner} from '../hook-runner.js'

/**
 * Puts the configured hooks into the session: pre/post hooks as middleware (the host places
 * it before the sandbox's), the other events through `onSessionEvent`. No hooks, no answer.
 * Hooks are not tied to `host.signal`: the host aborts it as soon as every plugin has answered.
 */
export default defineContributeHook(async ({host}) => {
  // Messages quote the settings' commands and what hooks printed: through the printer.
  const log = (message: string) => process.stderr.write(`hanzo-dev hooks: ${printable(message)}\n`)
  const {problems, runner} = HookRunner.fromSettings(host.settings.hooks, {
    env: host.env,
    log,
    projectRoot: host.projectRoot,
  })
  for (const problem of problems) log(problem)
  if (runner.size === 0) return undefined
  return {
    apiVersion: PLUGIN_API_VERSION,
    middleware: [runner.middleware()],
    onSessionEvent: (input) => runner.runSessionEvent(input),
  }
})
