import * as Args from '@oclif/core/args'

import {HanzoCommand} from '../../cli/base-command.js'
import {editKeepingTrust, settingsTarget, tierFlag} from '../../cli/settings-target.js'
import {type EditResult, setSetting, type Tier} from '../../core/config/index.js'

export default class ConfigSet extends HanzoCommand {
  static description = `Set one setting in your user settings file, or in the one --tier names.

KEY is dotted (sandbox.mode, mcp_servers.fs.command); config keys lists every setting with its type, default and the tiers that may set it. VALUE is read as JSON when it parses as JSON (true, 8000, ["a","b"], {"command":"npx"}), else as a string; a setting that takes only text keeps VALUE as typed. The new file is validated before it is written, atomically, keeping its other keys, their order and its indentation. Credentials (api_key, oauth_credentials, providers.*.api_key, secret env or headers of an MCP server) are only accepted in the user tier. Creating the local file adds it to the project's .gitignore.`

  static examples = [
    '<%= config.bin %> config set model gpt-4o',
    '<%= config.bin %> config set sandbox.mode workspace --tier project',
    `<%= config.bin %> config set mcp_servers.docs '{"url":"http://127.0.0.1:3000/mcp"}'`,
    `<%= config.bin %> config set "permissions.exec(git push*)" deny --tier project`,
  ]

  static args = {
    key: Args.string({description: 'Dotted setting key.', required: true}),
    value: Args.string({description: 'The value: JSON, or text.', required: true}),
  }

  static flags = {
    tier: tierFlag('The settings file to write.'),
  }

  async run(): Promise<EditResult & {tier: string}> {
    const {args, flags} = await this.parse(ConfigSet)
    const tier = flags.tier as Tier
    const target = await settingsTarget(tier)
    const result = await editKeepingTrust(() => setSetting(target, args.key, args.value))
    this.log(`Set ${result.key} in ${result.file}`)
    for (const warning of result.warnings) this.warn(warning)
    if (result.gitignore) this.log(`Added .hanzo/settings.local.json to ${result.gitignore}`)
    return {...result, tier}
  }
}
