import * as Args from '@oclif/core/args'

import {HanzoCommand} from '../../cli/base-command.js'
import {editKeepingTrust, settingsTarget, tierFlag} from '../../cli/settings-target.js'
import {type EditResult, type Tier, unsetSetting} from '../../core/config/index.js'

export default class ConfigUnset extends HanzoCommand {
  static description = `Remove one setting from your user settings file, or from the one --tier names.

Sections left empty are removed too; the file's other keys and formatting are kept. Exits 1 when the key is not set in that file (see config list --show-origin for where a value comes from).`

  static examples = [
    '<%= config.bin %> config unset model',
    '<%= config.bin %> config unset mcp_servers.fs --tier local',
  ]

  static args = {
    key: Args.string({description: 'Dotted setting key.', required: true}),
  }

  static flags = {
    tier: tierFlag('The settings file to change.'),
  }

  async run(): Promise<EditResult & {tier: string}> {
    const {args, flags} = await this.parse(ConfigUnset)
    const tier = flags.tier as Tier
    const target = await settingsTarget(tier)
    const result = await editKeepingTrust(() => unsetSetting(target, args.key))
    this.log(`Unset ${result.key} in ${result.file}`)
    for (const warning of result.warnings) this.warn(warning)
    return {...result, tier}
  }
}
