import {defineContributeHook, PLUGIN_API_VERSION} from '@hanzo-dev/sdk'

import {sandboxForHost, startNotices} from '../host-sandbox.js'
import {refusingMiddleware, sandboxMiddleware} from '../middleware.js'
import type {Sandbox} from '../sandbox.js'

/**
 * Puts the sandbox into the session as middleware. Cheap to answer: the trial runs that pick
 * the mechanism happen on the first exec, not here (and not tied to `host.signal`, which the host
 * aborts as soon as every plugin has answered), except inside a container with mode `auto`,
 * where they decide the mode. Settings the sandbox cannot read close it rather than open it:
 * every file tool and exec is refused with the reason. With the sandbox off, the session starts
 * by saying so (startNotices).
 */
export default defineContributeHook(async ({host}) => {
  const made = await sandboxForHost(host)
  if ('problem' in made)
    return {
      apiVersion: PLUGIN_API_VERSION,
      middleware: [refusingMiddleware(made.problem)],
      status: 'sandbox: settings unreadable, tools refused',
    }
  const {sandbox} = made
  const off = sandbox.config.mode === 'off'
  return {
    apiVersion: PLUGIN_API_VERSION,
    context: off ? undefined : describe(sandbox),
    middleware: [sandboxMiddleware(sandbox)],
    notices: await startNotices(made, host),
    status: `sandbox: ${sandbox.config.mode}${made.auto ? ' (auto)' : ''}`,
  }
})

function describe(sandbox: Sandbox): string {
  const {allowed_paths: allowed, mode, network} = sandbox.config
  const where =
    mode === 'workspace'
      ? `The file tools and exec work inside the workspace ${sandbox.workspace} only.`
      : `The file tools may read inside the workspace ${sandbox.workspace} and write only inside ${allowed.length > 0 ? allowed.join(', ') : 'no path at all (sandbox.allowed_paths is empty)'}.`
  return [
    `Sandbox (${mode} mode): ${where}`,
    "Every .hanzo/, git's config and hooks (.git/config, .git/hooks, what they include) and your git config are read-only, hanzo-dev's own settings and data are hidden, the file tools write nothing in .git and no file with more than one hard link; git add, commit and checkout work.",
    `exec runs commands with the rest of the file system read-only${mode === 'workspace' ? " (but the package managers' download caches: ~/.npm, ~/.cache, ~/.cargo/registry, ...)" : ''} and a private /tmp${network ? '' : ', without network'} where this machine allows it; its first result says how commands are confined here. Language servers run confined the same way, or not at all where this machine cannot confine them.`,
  ].join(' ')
}
