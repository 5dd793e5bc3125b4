import {defineContributeHook, PLUGIN_API_VERSION, printable} from '@hanzo-dev/sdk'

import {editDiagnostics} from '../edit-diagnostics.js'
import {readLspSettings} from '../lsp-settings.js'
import {lspTools} from '../lsp-tools.js'
import {ServerManager} from '../server-manager.js'
import {lspSlashCommands} from '../slash-commands.js'

/**
 * The code-intelligence tools and the diagnostics an edit caused. No server starts here: each
 * starts on the first tool call that touches a file of its language.
 */
export default defineContributeHook(async ({host}) => {
  let settings
  try {
    settings = readLspSettings(host.settings)
  } catch (error) {
    return {
      apiVersion: PLUGIN_API_VERSION,
      notices: [`lsp: ${(error as Error).message}; language servers are off for this session`],
    }
  }

  const manager = new ServerManager({
    env: host.env,
    projectRoot: host.projectRoot,
    // Said while the session runs, when a file first needs the server: once per language.
    report: (message) => void process.stderr.write(`Warning: lsp: ${printable(message)}\n`),
    settings,
  })
  return {
    apiVersion: PLUGIN_API_VERSION,
    dispose: () => manager.shutdown(),
    middleware: [editDiagnostics(manager)],
    slashCommands: lspSlashCommands(manager, host.env),
    tools: lspTools(manager),
  }
})
