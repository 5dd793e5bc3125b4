import type {SlashCommandDefinition} from '@hanzo-dev/sdk'

import {detectLanguages} from './languages.js'
import type {ServerManager} from './server-manager.js'
import {chooseServer, noServerText} from './server-lookup.js'

/**
 * `/lsp` at the interactive prompt: for each language the settings leave on, whether this
 * project uses it (its marker files), the server found for it, and whether that server runs in
 * this session (servers start on the first file of their language, never for `/lsp`).
 */
export function lspSlashCommands(
  manager: ServerManager,
  env: Readonly<Record<string, string | undefined>>,
): SlashCommandDefinition[] {
  return [
    {
      description: 'The language servers: found for this project, running in this session',
      name: 'lsp',
      async run() {
        const root = await manager.workspaceRoot()
        const [states, detected] = await Promise.all([manager.states(), detectLanguages(root, manager.languages())])
        const used = new Set(detected.map((language) => language.id))
        // Languages neither used here nor started are noise in a chat.
        const shown = states.filter(({language, state}) => used.has(language.id) || state !== 'not started')
        if (shown.length === 0)
          return {message: 'No language server for the languages of this project (hanzo-dev doctor lists them).'}
        const lines = await Promise.all(
          shown.map(async ({failure, language, state}) => {
            const choice = await chooseServer(language, {cwd: root, env, projectServers: manager.projectServers})
            const none = noServerText(language, choice)
            const server = choice.use
              ? `${choice.use.server.command} (${choice.use.path})`
              : `${none.problem}${none.hint ? ` (${none.hint})` : ''}`
            return `  ${language.name}: ${state === 'failed' ? `failed: ${failure}` : state}; ${server}`
          }),
        )
        return {message: ['Language servers:', ...lines].join('\n')}
      },
    },
  ]
}
