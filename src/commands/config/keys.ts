import * as Args from '@oclif/core/args'

import {HanzoCommand} from '../../cli/base-command.js'
import {renderSettingKeys} from '../../cli/render-setting-keys.js'
import {makeStyle} from '../../adapters/style.js'
import {type SettingKey, settingKeys, settingKeysUnder} from '../../core/config/setting-keys.js'

export default class ConfigKeys extends HanzoCommand {
  static description = `List every setting: its type, default, variable, tiers and what it does.

Keys are dotted, as config get and config set take them; <name> stands for a name you choose (mcp_servers.<name>.command), <n> for a position in a list (hooks.<n>.event). Settings come from the user file, the project file (.hanzo/settings.json) and the local file (.hanzo/settings.local.json), each overriding the one before, and the environment variables override them all (config path shows the files).

The tier rules say what a project's files may not do: credentials and a few settings are only read from your user file, hooks, MCP servers and allow rules take effect once you trust the project (hanzo-dev trust), and a URL with a user name or password is a credential wherever it appears. Reads no settings file, so it works when one is broken.`

  static examples = [
    '<%= config.bin %> config keys',
    '<%= config.bin %> config keys sandbox',
    '<%= config.bin %> config keys --json | jq -r ".keys[].key"',
  ]

  static args = {
    key: Args.string({description: 'Only this setting and the ones under it (sandbox, mcp_servers.fs, hooks).'}),
  }

  async run(): Promise<{keys: SettingKey[]}> {
    const {args} = await this.parse(ConfigKeys)
    const keys = args.key === undefined ? settingKeys() : settingKeysUnder(args.key)
    const width = process.stdout.isTTY ? process.stdout.columns : undefined
    this.log(renderSettingKeys(keys, makeStyle(process.stdout), width))
    return {keys}
  }
}
