import {homedir} from 'node:os'

import {nodeConfigIO} from '../../adapters/config-io.js'
import {HanzoCommand} from '../../cli/base-command.js'
import {type ConfigFile, locateConfigFiles} from '../../core/config/index.js'

export default class ConfigPath extends HanzoCommand {
  static description = `Print the settings files, lowest precedence first, and whether each exists.

The project is the nearest directory with a .hanzo/ folder between here and the git repository's root (or the root itself); outside a repository, the current directory.`

  static examples = ['<%= config.bin %> config path', '<%= config.bin %> config path --json']

  async run(): Promise<{projectRoot: string; files: ConfigFile[]}> {
    await this.parse(ConfigPath)
    const {files, projectRoot} = await locateConfigFiles({
      cwd: process.cwd(),
      env: process.env,
      homedir: homedir(),
      io: nodeConfigIO,
    })
    for (const file of files) this.log(`${file.tier.padEnd(8)}${file.path}${file.exists ? '' : ' (not created)'}`)
    return {files, projectRoot}
  }
}
