import type {DoctorCheck, HostContext} from '@hanzo-dev/sdk'

import {detectLanguages, type LanguageSpec} from './languages.js'
import {LspSettingsError, readLspSettings} from './lsp-settings.js'
import {choose, findAllServers, type FoundServer, type LookupOptions, noServerText} from './server-lookup.js'

type LspHost = Pick<HostContext, 'cwd' | 'env' | 'projectRoot' | 'settings'>

/**
 * Language servers are optional: without one the agent loses diagnostics, not function.
 * So a detected language without a server that may run is a warning with the install command,
 * or why its server is held back (the project's own program) and the command that lets it run.
 */
export async function lspChecks(host: LspHost): Promise<DoctorCheck[]> {
  let settings
  try {
    settings = readLspSettings(host.settings)
  } catch (error) {
    if (!(error instanceof LspSettingsError)) throw error
    return [
      {
        detail: error.message,
        hint: 'fix the lsp section of your user settings (hanzo-dev config path)',
        id: 'lsp.settings',
        status: 'fail',
        title: 'lsp settings',
      },
    ]
  }

  const lookup = {cwd: host.projectRoot, env: host.env, projectServers: settings.projectServers}
  const [found, detected] = await Promise.all([
    findAllServers(lookup, settings.languages),
    detectLanguages(host.projectRoot, settings.languages),
  ])
  const title = 'language servers on PATH or in node_modules/.bin'
  const listed = (f: FoundServer) =>
    f.own && !settings.projectServers
      ? `${f.server.command} (${f.path}, held back: the project's own)`
      : `${f.server.command} (${f.path})`
  const checks: DoctorCheck[] = [
    found.length > 0
      ? {detail: found.map(listed).join(', '), id: 'lsp.servers', status: 'ok', title}
      : {detail: 'none found', id: 'lsp.servers', status: 'skip', title},
  ]

  if (detected.length === 0) {
    checks.push({
      detail: `no known project files in ${host.projectRoot}`,
      id: 'lsp.languages',
      status: 'skip',
      title: 'project languages have a server',
    })
  }

  for (const language of detected) checks.push(languageCheck(language, found, lookup))
  return checks
}

function languageCheck(language: LanguageSpec, found: FoundServer[], lookup: LookupOptions): DoctorCheck {
  const title = `${language.name} language server`
  const id = `lsp.language.${language.id}`
  const choice = choose(language, found, lookup)
  if (choice.use)
    return {
      detail: `${choice.use.server.command} (${choice.use.path})${choice.use.own ? `, the project's own: ${choice.use.own}` : ''}`,
      id,
      status: 'ok',
      title,
    }
  const {hint, problem} = noServerText(language, choice)
  return {detail: `project uses ${language.name}; ${problem}`, hint, id, status: 'warn', title}
}
