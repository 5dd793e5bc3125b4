import {defineContributeHook, PLUGIN_API_VERSION} from '@hanzo-dev/sdk'

/** The stages as slash commands; the modules behind them load with the answer, nothing starts. */
export default defineContributeHook(async () => {
  const {agentSlashCommands} = await import('../slash-commands.js')
  return {apiVersion: PLUGIN_API_VERSION, slashCommands: agentSlashCommands()}
})
