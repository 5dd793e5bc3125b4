import {loadCommandHost, makePaint} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'

import {lspSettingsFor} from '../../command-support.js'
import {detectLanguages} from '../../languages.js'
import {findAllServers, serverHint} from '../../server-lookup.js'

export interface KnownServer {
  language: string
  command: string
  /** Where it is on PATH, or in the project's node_modules/.bin when lsp.project_servers allows it; null when it is in neither. */
  path: string | null
  install: string
}

export interface ProjectLanguage {
  id: string
  name: string
  /** The server the agent will use (the first of the language's servers that is found); null when none is. */
  server: {command: string; path: string} | null
  /** When no server is found: how to install the preferred one, or the setting that lets the project's own run. */
  install?: string
}

export interface LspServersResult {
  projectRoot: string
  servers: KnownServer[]
  languages: ProjectLanguage[]
}

export default class LspServers extends Command {
  static enableJsonFlag = true

  static description = `List the language servers hanzo-dev knows, and the languages of this project.

Each known server shows where it was found: on PATH, else in the project's node_modules/.bin when lsp.project_servers is true in your user settings (those are the project's own programs, so they do not run otherwise); the servers set in lsp.servers (user settings) are listed with the built-in ones. A language counts as used when one of its marker files (tsconfig.json, package.json, pyproject.toml, Cargo.toml, go.mod, ...) sits in the project root. A used language without a server only loses diagnostics; the install command is shown next to it. No server is started.`

  static examples = ['<%= config.bin %> lsp servers', '<%= config.bin %> lsp servers --json | jq ".languages[] | select(.server == null)"']

  async run(): Promise<LspServersResult> {
    const {flags} = await this.parse(LspServers)
    const host = await loadCommandHost(this)
    // Same lookup as the doctor: relative PATH entries are taken from the project root.
    const {languages, projectServers} = lspSettingsFor(this, host.settings)
    const lookup = {cwd: host.projectRoot, env: host.env, projectServers}

    const [found, detected] = await Promise.all([findAllServers(lookup, languages), detectLanguages(host.projectRoot, languages)])
    const pathOf = (command: string) => found.find((f) => f.server.command === command)?.path ?? null

    const servers: KnownServer[] = languages.flatMap((language) =>
      language.servers.map((s) => ({command: s.command, install: s.install, language: language.id, path: pathOf(s.command)})),
    )
    const used: ProjectLanguage[] = await Promise.all(
      detected.map(async (language) => {
        const use = found.find((f) => f.language.id === language.id)
        return use
          ? {id: language.id, name: language.name, server: {command: use.server.command, path: use.path}}
          : {id: language.id, install: await serverHint(language, lookup), name: language.name, server: null}
      }),
    )

    const result = {languages: used, projectRoot: host.projectRoot, servers}
    if (!flags.json) this.log(render(result))
    return result
  }
}

function render({languages, projectRoot, servers}: LspServersResult): string {
  const paint = makePaint()
  const width = Math.max(...servers.map((s) => s.command.length))
  const languageWidth = Math.max(...servers.map((s) => s.language.length))
  const lines = [paint.bold('Language servers')]
  for (const s of servers) {
    const mark = s.path ? paint.green('✓') : paint.dim('-')
    lines.push(`  ${mark} ${s.command.padEnd(width)}  ${s.language.padEnd(languageWidth)}  ${s.path ?? paint.dim('not found')}`)
  }

  lines.push('', paint.bold(`Project languages (${projectRoot})`))
  if (languages.length === 0) lines.push(`  ${paint.dim('none detected: no known project files in the project root')}`)
  for (const l of languages) {
    if (l.server) {
      lines.push(`  ${paint.green('✓')} ${l.name}: ${l.server.command}`)
    } else {
      lines.push(`  ${paint.yellow('!')} ${l.name}: no server found`, `      ${paint.dim('→')} ${l.install}`)
    }
  }

  return lines.join('\n')
}
