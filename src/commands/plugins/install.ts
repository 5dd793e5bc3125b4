import {existsSync} from 'node:fs'
import {homedir} from 'node:os'
import {join, resolve} from 'node:path'
import {Command} from '@oclif/core/command'
import {commands} from '@oclif/plugin-plugins'

const Base = commands['plugins:install']

/**
 * @oclif/plugin-plugins reads `./my-plugin.tgz` as a GitHub `owner/repo`. A path that exists
 * on disk (a tarball, or a directory spelled `./dir`) is what the user means: `file:<path>`.
 * One spelled as a path (`.`, `/` or `~` first) that does not exist is an error: handed on,
 * it would become a GitHub URL and hang on git.
 */
export default class PluginsInstall extends Command {
  static aliases = Base.aliases
  static args = Base.args
  // Ours, not Base's: its lines are wrapped in the source and come out ragged.
  static description = `Uses npm to install plugins: a package name, a GitHub URL or owner/repo, or a local tarball or directory (./my-plugin-1.0.0.tgz). A plugin you install overrides a core plugin of the same name.

Set npm's log level with <%= config.scopedEnvVarKey('NPM_LOG_LEVEL') %> and its registry with <%= config.scopedEnvVarKey('NPM_REGISTRY') %>.`
  static examples = [
    ...Base.examples,
    {
      command: '<%= config.bin %> <%= command.id %> ./my-plugin-1.0.0.tgz',
      description: 'Install a plugin from a local tarball.',
    },
  ]

  static flags = Base.flags
  static strict = Base.strict
  static summary = Base.summary

  async run(): Promise<void> {
    const argv = this.argv.map((arg) => {
      const spec = asSpec(arg)
      if (spec === undefined)
        this.error(`No such file or directory: ${arg}`, {
          exit: 2,
          suggestions: ['give the path of a plugin tarball or directory, or an npm package name'],
        })
      return spec
    })
    await Base.run(argv, this.config)
  }
}

/**
 * As npm reads a spec: only what is spelled as a path is one (`hello` stays a package name);
 * `undefined` for a path that is not there.
 */
function asSpec(arg: string): string | undefined {
  const spelledAsPath = /^[./~]/.test(arg)
  const path = /^~(?=\/|$)/.test(arg) ? join(homedir(), arg.slice(1)) : arg
  if (existsSync(path) && (spelledAsPath || /\.(tgz|tar\.gz|tar)$/.test(arg))) return `file:${resolve(path)}`
  return spelledAsPath ? undefined : arg
}
