import type {DoctorCheck, HostContext} from '@hanzo-dev/sdk'

import {detectLanguages, LANGUAGES, type LanguageSpec} from './languages.js'
import {findAllServers, type FoundServer} from './server-lookup.js'

type LspHost = Pick<HostContext, 'cwd' | 'env' | 'projectRoot'>

/**
 * Language servers are optional: without one the agent loses diagnostics, not function.
 * So a detected language without its server is a warning with the install command.
 */
export async function lspChecks(host: LspHost, languages: readonly LanguageSpec[] = LANGUAGES): Promise<DoctorCheck[]> {
  const lookup = {cwd: host.projectRoot, env: host.env}
  const [found, detected] = await Promise.all([findAllServers(lookup, languages), detectLanguages(host.projectRoot, languages)])

  const checks: DoctorCheck[] = [
    found.length > 0
      ? {detail: found.map((f) => `${f.server.command} (${f.path})`).join(', '), id: 'lsp.servers', status: 'ok', title: 'language servers on PATH'}
      : {detail: 'none found', id: 'lsp.servers', status: 'skip', title: 'language servers on PATH'},
  ]

  if (detected.length === 0) {
    checks.push({detail: `no known project files in ${host.projectRoot}`, id: 'lsp.languages', status: 'skip', title: 'project languages have a server'})
  }

  for (const language of detected) checks.push(languageCheck(language, found))
  return checks
}

function languageCheck(language: LanguageSpec, found: FoundServer[]): DoctorCheck {
  const title = `${language.name} language server`
  const server = found.find((f) => f.language.id === language.id)
  if (server) return {detail: `${server.server.command} (${server.path})`, id: `lsp.language.${language.id}`, status: 'ok', title}
  const preferred = language.servers[0]
  return {
    detail: `project uses ${language.name}; ${language.servers.map((s) => s.command).join(' / ')} not on PATH`,
    hint: preferred.install,
    id: `lsp.language.${language.id}`,
    status: 'warn',
    title,
  }
}
