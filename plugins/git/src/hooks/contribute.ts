import {defineContributeHook, PLUGIN_API_VERSION} from '@hanzo-dev/sdk'

import {gitTools} from '../git-tools.js'
import {readRepository} from '../repository.js'

/**
 * The read-only git tools, in a session whose workspace is in a git repository; the slash
 * commands always (outside a repository they say so, rather than being unknown).
 */
export default defineContributeHook(async ({host}) => {
  const [repo, {gitSlashCommands}] = await Promise.all([
    readRepository({cwd: host.cwd, env: host.env, signal: host.signal}),
    import('../slash-commands.js'),
  ])
  return {apiVersion: PLUGIN_API_VERSION, slashCommands: gitSlashCommands(), ...(repo ? {tools: gitTools()} : {})}
})
