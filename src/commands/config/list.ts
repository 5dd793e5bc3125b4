import * as Flags from '@oclif/core/flags'
import {printable} from '@hanzo-dev/sdk/terminal-text'

import {HanzoCommand} from '../../cli/base-command.js'
import {formatOrigin, formatValue, settingEntries, shownConfig} from '../../core/config/display.js'
import {DEFAULT_PERMISSION_RULES} from '../../core/permissions/policy.js'

export default class ConfigList extends HanzoCommand {
  static description = `List the merged settings, one key=value per line, credentials redacted.

Settings come from the user file ($XDG_CONFIG_HOME/hanzo/settings.json), the project file (.hanzo/settings.json), the local file (.hanzo/settings.local.json) and HANZO_* environment variables, each overriding the one before. --show-origin prefixes every line with the file or variable the value came from.`

  static examples = [
    '<%= config.bin %> config list',
    '<%= config.bin %> config list --show-origin',
    '<%= config.bin %> config list --json | jq .config.model',
  ]

  static flags = {
    'show-origin': Flags.boolean({description: 'Show the file or environment variable each value came from.'}),
  }

  async run(): Promise<{
    config: Record<string, unknown>
    defaultPermissions: Record<string, string>
    origins: Record<string, string>
  }> {
    const {flags} = await this.parse(ConfigList)
    const {config, origins} = await this.settings()
    for (const entry of settingEntries(config, origins)) {
      const line = `${entry.key}=${formatValue(entry.value)}`
      // A project's settings file wrote keys, values and the path: shown, never obeyed by the terminal.
      this.log(printable(flags['show-origin'] ? `${formatOrigin(entry.origin)}\t${line}` : line))
    }

    // The shipped rules (read-only built-ins allowed) apply after every configured rule; shown
    // so nobody has to guess why fs_read never asks. A configured rule for the pattern replaces it.
    const defaults = DEFAULT_PERMISSION_RULES.filter(({pattern}) => !(pattern in config.permissions))
    for (const {mode, pattern} of defaults) {
      const line = `permissions.${pattern}=${mode}`
      this.log(flags['show-origin'] ? `default (built-in)\t${line}` : line)
    }

    return {
      config: shownConfig(config),
      defaultPermissions: Object.fromEntries(defaults.map((r) => [r.pattern, r.mode])),
      origins,
    }
  }
}
