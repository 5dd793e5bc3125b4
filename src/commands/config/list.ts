import * as Flags from '@oclif/core/flags'

import {HanzoCommand} from '../../cli/base-command.js'
import {formatOrigin, formatValue, settingEntries, shownConfig} from '../../core/config/display.js'

export default class ConfigList extends HanzoCommand {
  static description = `List the merged settings, one key=value per line, credentials redacted.

Settings come from the user file ($XDG_CONFIG_HOME/hanzo/settings.json), the project file
(.hanzo/settings.json), the local file (.hanzo/settings.local.json) and HANZO_* environment
variables, each overriding the one before. --show-origin prefixes every line with the file or
variable the value came from.`

  static examples = [
    '<%= config.bin %> config list',
    '<%= config.bin %> config list --show-origin',
    '<%= config.bin %> config list --json | jq .config.model',
  ]

  static flags = {
    'show-origin': Flags.boolean({description: 'Show the file or environment variable each value came from.'}),
  }

  async run(): Promise<{config: Record<string, unknown>; origins: Record<string, string>}> {
    const {flags} = await this.parse(ConfigList)
    const {config, origins} = await this.settings()
    for (const entry of settingEntries(config, origins)) {
      const line = `${entry.key}=${formatValue(entry.value)}`
      this.log(flags['show-origin'] ? `${formatOrigin(entry.origin)}\t${line}` : line)
    }

    return {config: shownConfig(config), origins}
  }
}
