import {existsSync} from 'node:fs'
import {resolve} from 'node:path'
import {Command} from '@oclif/core/command'
import {commands} from '@oclif/plugin-plugins'

const Base = commands['plugins:install']

/**
 * @oclif/plugin-plugins reads `./my-plugin.tgz` as a GitHub `owner/repo`. A path that exists
 * on disk (a tarball, or a directory spelled `./dir`) is what the user means: `file:<path>`.
 */
export default class PluginsInstall extends Command {
  static aliases = Base.aliases
  static args = Base.args
  // Ours, not Base's: its lines are wrapped in the source and come out ragged.
  static description = `Uses npm to install plugins: a package name, a GitHub URL or owner/repo, or a local tarball or directory (./my-plugin-1.0.0.tgz). A plugin you install overrides a core plugin of the same name.

Set npm's log level with <%= config.scopedEnvVarKey('NPM_LOG_LEVEL') %> and its registry with <%= config.scopedEnvVarKey('NPM_REGISTRY') %>.`
  static examples = [
    ...Base.examples,
    {command: '<%= config.bin %> <%= command.id %> ./my-plugin-1.0.0.tgz', description: 'Install a plugin from a local tarball.'},
  ]

  static flags = Base.flags
  static strict = Base.strict
  static summary = Base.summary

  async run(): Promise<void> {
    await Base.run(this.argv.map((arg) => (isLocalPath(arg) ? `file:${resolve(arg)}` : arg)), this.config)
  }
}

/** As npm reads a spec: only what is spelled as a path is one (`hello` stays a package name). */
function isLocalPath(arg: string): boolean {
  const pathLike = /^(\.{1,2}\/|\/)/.test(arg) || /\.(tgz|tar\.gz|tar)$/.test(arg)
  return pathLike && existsSync(arg)
}
