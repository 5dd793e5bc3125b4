import type {DoctorCheck, HostContext} from '@hanzo-dev/sdk'

import {detectLanguages, type LanguageSpec} from './languages.js'
import {LspSettingsError, readLspSettings} from './lsp-settings.js'
import {findAllServers, type FoundServer, lookedIn, type LookupOptions, serverHint} from './server-lookup.js'

type LspHost = Pick<HostContext, 'cwd' | 'env' | 'projectRoot' | 'settings'>

/**
 * Language servers are optional: without one the agent loses diagnostics, not function.
 * So a detected language without its server is a warning with the install command (or the
 * setting that lets the project's own server run).
 */
export async function lspChecks(host: LspHost): Promise<DoctorCheck[]> {
  let settings
  try {
    settings = readLspSettings(host.settings)
  } catch (error) {
    if (!(error instanceof LspSettingsError)) throw error
    return [{detail: error.message, hint: 'fix the lsp section of your user settings (hanzo-dev config path)', id: 'lsp.settings', status: 'fail', title: 'lsp settings'}]
  }

  const lookup = {cwd: host.projectRoot, env: host.env, projectServers: settings.projectServers}
  const [found, detected] = await Promise.all([findAllServers(lookup, settings.languages), detectLanguages(host.projectRoot, settings.languages)])
  const title = `language servers ${lookedIn(lookup)}`
  const checks: DoctorCheck[] = [
    found.length > 0
      ? {detail: found.map((f) => `${f.server.command} (${f.path})`).join(', '), id: 'lsp.servers', status: 'ok', title}
      : {detail: 'none found', id: 'lsp.servers', status: 'skip', title},
  ]

  if (detected.length === 0) {
    checks.push({detail: `no known project files in ${host.projectRoot}`, id: 'lsp.languages', status: 'skip', title: 'project languages have a server'})
  }

  for (const language of detected) checks.push(await languageCheck(language, found, lookup))
  return checks
}

async function languageCheck(language: LanguageSpec, found: FoundServer[], lookup: LookupOptions): Promise<DoctorCheck> {
  const title = `${language.name} language server`
  const server = found.find((f) => f.language.id === language.id)
  if (server) return {detail: `${server.server.command} (${server.path})`, id: `lsp.language.${language.id}`, status: 'ok', title}
  return {
    detail: `project uses ${language.name}; ${language.servers.map((s) => s.command).join(' / ')} not ${lookedIn(lookup)}`,
    hint: await serverHint(language, lookup),
    id: `lsp.language.${language.id}`,
    status: 'warn',
    title,
  }
}
