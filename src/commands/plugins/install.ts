import {existsSync} from 'node:fs'
import {resolve} from 'node:path'
import {Command} from '@oclif/core/command'
import {commands} from '@oclif/plugin-plugins'

const Base = commands['plugins:install']

/**
 * @oclif/plugin-plugins reads `./my-plugin.tgz` as a GitHub `owner/repo`. A path that exists
 * on disk (a tarball or a directory) is what the user means: it is handed on as `file:<path>`.
 */
export default class PluginsInstall extends Command {
  static aliases = Base.aliases
  static args = Base.args
  static description = Base.description
  static examples = [
    ...Base.examples,
    {command: '<%= config.bin %> <%= command.id %> ./my-plugin-1.0.0.tgz', description: 'Install a plugin from a local tarball.'},
  ]

  static flags = Base.flags
  static strict = Base.strict
  static summary = Base.summary

  async run(): Promise<void> {
    const argv = this.argv.map((arg) => (!arg.startsWith('-') && !arg.includes(':') && existsSync(arg) ? `file:${resolve(arg)}` : arg))
    await Base.run(argv, this.config)
  }
}
