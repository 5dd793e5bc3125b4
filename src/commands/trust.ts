import {homedir} from 'node:os'
import {join, resolve} from 'node:path'
import * as Args from '@oclif/core/args'
import * as Flags from '@oclif/core/flags'
import {formatWarning} from '@hanzo-dev/sdk/settings'
import {printable} from '@hanzo-dev/sdk/terminal-text'

import {nodeConfigIO} from '../adapters/config-io.js'
import {FileTrustStore, loadIfValid, type TrustedProject} from '../adapters/trust-store.js'
import {confirm, isInteractive} from '../cli/auth-terminal.js'
import {HanzoCommand} from '../cli/base-command.js'
import {loadConfig} from '../core/config/load.js'
import {locateConfigFiles, PROJECT_DIR} from '../core/config/locate.js'
import {renderTrustReview, reviewTrust, type TrustReview} from '../core/config/trust-review.js'
import {type ProjectTier, trustStatus, type TrustStatus} from '../core/config/trust.js'
import {UserError} from '../core/errors.js'

type ListedStatus = Exclude<TrustStatus, 'unchecked' | 'untrusted'> | 'missing' | 'unreadable'

type TrustResult =
  | {
      projectRoot: string
      status: 'trusted' | 'declined' | 'already-trusted' | 'not-needed'
      digest?: string
      settings?: TrustReview[]
      agents?: string[]
    }
  | {
      projects: Array<TrustedProject & {status: ListedStatus; agents: string[]}>
      current?: {root: string; status: TrustStatus}
    }
  | {projectRoot: string; revoked: boolean}

const LISTED: Record<ListedStatus, string> = {
  changed: 'settings or agents changed since: their hooks, MCP servers, allow rules and agents are ignored',
  missing: 'the directory is gone',
  'not-needed': 'no longer has settings or agents that need trust',
  trusted: 'settings unchanged',
  unreadable: 'its settings cannot be read',
}

export default class Trust extends HanzoCommand {
  // One line per paragraph: oclif wraps them to the terminal.
  static description = `Let this project's hooks, MCP servers, allow rules and agents take effect.

Hooks, MCP servers, "allow" permission rules and sandbox.allowed_paths in .hanzo/settings.json and .hanzo/settings.local.json run code, let tools run unasked or let commands write more, and the agents in .hanzo/agents/*.md choose an agent's instructions, tools and permission mode, so a cloned repository's settings and agents stay inert until you trust them here. trust shows them (MCP secrets redacted) and asks first.

What you trust is recorded with a SHA-256 of those settings and agent files in your data dir ($XDG_DATA_HOME/hanzo-dev/trusted-projects.json): when they change, they are inert again until you trust them again. Deny and prompt rules, and every other setting, apply without trust.`

  static examples = [
    '<%= config.bin %> trust',
    '<%= config.bin %> trust --yes',
    '<%= config.bin %> trust --list',
    '<%= config.bin %> trust --revoke',
    '<%= config.bin %> trust --revoke ~/src/old-project',
  ]

  static args = {
    path: Args.string({description: 'The project (default: the one around the current directory).'}),
  }

  static flags = {
    list: Flags.boolean({
      description: 'List the trusted projects, and whether their settings still match.',
      exclusive: ['revoke', 'yes'],
    }),
    revoke: Flags.boolean({description: 'Stop trusting the project.', exclusive: ['yes']}),
    yes: Flags.boolean({char: 'y', description: 'Trust without asking (after reading what it shows).'}),
  }

  private readonly store = FileTrustStore.of(process.env, homedir())

  async run(): Promise<TrustResult> {
    const {args, flags} = await this.parse(Trust)
    if (flags.list) {
      if (args.path) throw new UserError('--list takes no PATH', {exitCode: 2, hint: 'hanzo-dev trust --list'})
      return this.list(Boolean(flags.json))
    }

    return flags.revoke ? this.revoke(args.path) : this.trust(args.path, {json: Boolean(flags.json), yes: flags.yes})
  }

  private async trust(path: string | undefined, flags: {yes: boolean; json: boolean}): Promise<TrustResult> {
    const cwd = path ? resolve(path) : process.cwd()
    if ((await nodeConfigIO.kind(cwd)) !== 'directory') throw new UserError(`No such directory: ${cwd}`, {exitCode: 2})
    // Loaded without the store: what the settings would do once trusted.
    const loaded = await loadConfig(this.loadOptions(cwd))
    for (const w of loaded.warnings) this.warn(formatWarning(w))
    const {digest, settings} = loaded.trust
    const projectRoot = loaded.projectRoot
    const status = trustStatus(digest, await this.store.lookup(projectRoot))
    if (status === 'not-needed' || status === 'trusted') {
      this.log(
        status === 'trusted'
          ? `${projectRoot} is trusted already.`
          : `Nothing to trust in ${projectRoot}: no hooks, MCP servers, allow rules or agents.`,
      )
      return {projectRoot, status: status === 'trusted' ? 'already-trusted' : 'not-needed'}
    }

    const review = reviewTrust(settings)
    const files = Object.fromEntries(loaded.files.map((f) => [f.tier, f.path])) as Record<ProjectTier, string>
    const agents = Object.keys(loaded.trust.agents)
    // The project's files wrote these commands and names: the terminal shows them, it must not obey them.
    const text = printable(
      [
        `Trusting ${projectRoot} lets these settings take effect:`,
        ...renderTrustReview(review, files, {files: agents, projectDir: join(projectRoot, PROJECT_DIR)}),
      ].join('\n'),
    )
    if (!flags.json) this.log(text)
    if (!flags.yes) {
      if (!isInteractive()) {
        throw new UserError(`Not trusted: confirming needs a terminal`, {
          exitCode: 2,
          hint: 'review the settings (hanzo-dev trust shows them), then run hanzo-dev trust --yes',
        })
      }

      if (flags.json) process.stderr.write(`${text}\n`)
      if (!(await confirm(`Trust ${projectRoot}?`))) {
        this.log('Nothing trusted.')
        process.exitCode = 1
        return {agents, projectRoot, settings: review, status: 'declined'}
      }
    }

    await this.store.trust(projectRoot, digest as string)
    this.log(`Trusted ${projectRoot}. A change to these settings makes them inert again until you trust them again.`)
    return {agents, digest, projectRoot, settings: review, status: 'trusted'}
  }

  private async list(json: boolean): Promise<TrustResult> {
    const projects = await Promise.all((await this.store.list()).map(async (p) => ({...p, ...(await this.listed(p))})))
    for (const p of projects)
      this.log(
        `${p.root}  trusted ${p.at}  ${LISTED[p.status]}${p.agents.length > 0 ? `  (agents: ${p.agents.join(', ')})` : ''}`,
      )
    if (projects.length === 0) this.log('No trusted projects.')
    const here = await loadIfValid(this.loadOptions(process.cwd()))
    if (!here || projects.some((p) => p.root === here.projectRoot)) return {projects}
    const current = {
      root: here.projectRoot,
      status: trustStatus(here.trust.digest, await this.store.lookup(here.projectRoot)),
    }
    if (current.status === 'untrusted' && !json)
      this.log(
        `This project (${current.root}) is not trusted: its hooks, MCP servers, allow rules and agents are ignored.`,
      )
    return {current, projects}
  }

  /** A trusted project as it is now: whether its settings still match, and its agent files. */
  private async listed(project: TrustedProject): Promise<{status: ListedStatus; agents: string[]}> {
    if ((await nodeConfigIO.kind(project.root)) !== 'directory') return {agents: [], status: 'missing'}
    const loaded = await loadIfValid({...this.loadOptions(project.root), projectRoot: project.root})
    if (!loaded) return {agents: [], status: 'unreadable'}
    return {
      agents: Object.keys(loaded.trust.agents),
      status: trustStatus(loaded.trust.digest, {trusted: project}) as ListedStatus,
    }
  }

  /** PATH as listed, else the project around it; no PATH: the project around the current directory. */
  private async revoke(path: string | undefined): Promise<TrustResult> {
    const roots = path ? [resolve(path)] : []
    if (!path || (await nodeConfigIO.kind(resolve(path))) === 'directory') {
      roots.push((await locateConfigFiles(this.loadOptions(path ? resolve(path) : process.cwd()))).projectRoot)
    }

    for (const root of roots) {
      if (!(await this.store.revoke(root))) continue
      this.log(`No longer trusting ${root}: its hooks, MCP servers, allow rules and agents are ignored.`)
      return {projectRoot: root, revoked: true}
    }

    this.log(`${roots.at(-1)} is not trusted; nothing to revoke.`)
    return {projectRoot: roots.at(-1) as string, revoked: false}
  }

  private loadOptions(cwd: string) {
    return {cwd, env: process.env, homedir: homedir(), io: nodeConfigIO}
  }
}
