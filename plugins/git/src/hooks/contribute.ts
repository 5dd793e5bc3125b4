import {defineContributeHook, PLUGIN_API_VERSION} from '@hanzo-dev/sdk'

import {gitTools} from '../git-tools.js'
import {readRepository} from '../repository.js'

/** The read-only git tools, in a session whose workspace is in a git repository. */
export default defineContributeHook(async ({host}) => {
  if (!(await readRepository({cwd: host.cwd, env: host.env, signal: host.signal}))) return undefined
  return {apiVersion: PLUGIN_API_VERSION, tools: gitTools()}
})
