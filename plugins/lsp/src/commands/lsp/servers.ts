import {loadCommandHost, makePaint, oneLine, printable} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'

import {lspSettingsFor} from '../../command-support.js'
import {detectLanguages} from '../../languages.js'
import {choose, findAllServers, type FoundServer, noServerText} from '../../server-lookup.js'
import {startFailure} from '../../server-probe.js'

export interface KnownServer {
  language: string
  command: string
  /** Where it is on PATH, else in the project's node_modules/.bin; null when it is in neither. */
  path: string | null
  /** Why it is the project's own program, when it is: it runs only with lsp.project_servers. */
  own?: string
  /** True when it is the project's own and lsp.project_servers is not set. */
  heldBack: boolean
  /** Whether it answered LSP `initialize` when started; null when it was not tried (not found, or held back). */
  starts: boolean | null
  /** Why it did not start, when it did not. */
  failure?: string
  install: string
}

export interface ProjectLanguage {
  id: string
  name: string
  /** The server the agent will use (the first of the language's servers that is found); null when none is. */
  server: {command: string; path: string} | null
  /** When no server runs: why (the project's own server is held back, none is found, or it does not start). */
  problem?: string
  /** When no server runs: how to install the preferred one, or the command that lets the project's own run. */
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

Each known server shows where it was found: on PATH, else in the project's node_modules/.bin; the servers set in lsp.servers (user settings) are listed with the built-in ones. Each one found (and not held back) is started in the project root, all at once, and asked the LSP initialize handshake, then shut down: one that fails or does not answer within 10 seconds is marked ✗ with why and what to install. A server the project can choose is the project's own program and is held back unless lsp.project_servers is true in your user settings (hanzo-dev config set lsp.project_servers true): one inside the project, a toolchain proxy or shim (rustup, pyenv, asdf, mise, volta, ...), or any server when the project root has a toolchain file (rust-toolchain.toml, .python-version, .tool-versions, .nvmrc, ...). A language counts as used when one of its marker files (tsconfig.json, package.json, pyproject.toml, Cargo.toml, go.mod, ...) sits in the project root. A used language without a server that starts only loses diagnostics; why, and the command to fix it, is shown next to it.`

  static examples = [
    '<%= config.bin %> lsp servers',
    '<%= config.bin %> lsp servers --json | jq ".languages[] | select(.server == null)"',
  ]

  async run(): Promise<LspServersResult> {
    const {flags} = await this.parse(LspServers)
    const host = await loadCommandHost(this)
    // Same lookup as the doctor: relative PATH entries are taken from the project root.
    const {languages, projectServers} = lspSettingsFor(this, host.settings)
    const lookup = {cwd: host.projectRoot, env: host.env, projectServers}

    const [found, detected] = await Promise.all([
      findAllServers(lookup, languages),
      detectLanguages(host.projectRoot, languages),
    ])
    // Only what may run is started: a held-back server is the project's own program.
    const failures = new Map<FoundServer, string | undefined>(
      await Promise.all(
        found
          .filter((f) => !f.own || projectServers)
          .map(async (f) => [f, await startFailure(f, host.projectRoot, host.env)] as const),
      ),
    )
    const servers: KnownServer[] = languages.flatMap((language) =>
      language.servers.map((s) => {
        const at = found.find((f) => f.language.id === language.id && f.server.command === s.command)
        const failure = at && failures.get(at)
        return {
          command: s.command,
          heldBack: Boolean(at?.own) && !projectServers,
          install: s.install,
          language: language.id,
          path: at?.path ?? null,
          starts: at && failures.has(at) ? failure === undefined : null,
          ...(at?.own ? {own: at.own} : {}),
          ...(failure ? {failure} : {}),
        }
      }),
    )
    const used: ProjectLanguage[] = detected.map((language) => {
      const choice = choose(language, found, lookup)
      const failure = choice.use && failures.get(choice.use)
      if (choice.use && failure)
        return {
          id: language.id,
          install: choice.use.server.install,
          name: language.name,
          problem: `${choice.use.server.command} (${choice.use.path}) does not start: ${failure}`,
          server: null,
        }
      if (choice.use)
        return {
          id: language.id,
          name: language.name,
          server: {command: choice.use.server.command, path: choice.use.path},
        }
      const {hint, problem} = noServerText(language, choice)
      return {id: language.id, install: hint, name: language.name, problem, server: null}
    })

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
    const mark = s.heldBack
      ? paint.yellow('!')
      : s.starts === false
        ? paint.red('✗')
        : s.path
          ? paint.green('✓')
          : paint.dim('-')
    const where = s.path
      ? `${printable(s.path)}${s.heldBack ? ` ${paint.yellow('held back')} (the project's own program: ${printable(s.own ?? '')})` : ''}`
      : paint.dim('not found')
    lines.push(`  ${mark} ${s.command.padEnd(width)}  ${s.language.padEnd(languageWidth)}  ${where}`)
    if (s.failure)
      lines.push(`      does not start: ${oneLine(s.failure, 300)}`, `      ${paint.dim('→')} ${printable(s.install)}`)
  }

  lines.push('', paint.bold(`Project languages (${printable(projectRoot)})`))
  if (languages.length === 0) lines.push(`  ${paint.dim('none detected: no known project files in the project root')}`)
  for (const l of languages) {
    if (l.server) {
      lines.push(`  ${paint.green('✓')} ${l.name}: ${l.server.command}`)
    } else {
      lines.push(
        `  ${paint.yellow('!')} ${l.name}: ${oneLine(l.problem ?? '', 400)}`,
        ...(l.install ? [`      ${paint.dim('→')} ${printable(l.install)}`] : []),
      )
    }
  }

  return lines.join('\n')
}
