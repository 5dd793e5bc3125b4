import * as Args from '@oclif/core/args'

import {HanzoCommand} from '../../cli/base-command.js'
import {configGet} from '../../cli/config-get.js'
import type {SettingEntry} from '../../core/config/display.js'

export default class ConfigGet extends HanzoCommand {
  static description = `Print one merged setting; exits 1 when it is not set (like git config).

KEY is dotted: model, sandbox.mode, mcp_servers.fs.command, permissions.exec(git status*); config keys lists every setting. A section prints as JSON. Credentials print redacted.`

  static examples = [
    '<%= config.bin %> config get model',
    '<%= config.bin %> config get mcp_servers --json',
    '<%= config.bin %> config get "permissions.exec(git push*)"',
  ]

  static args = {
    key: Args.string({description: 'Dotted setting key.', required: true}),
  }

  async run(): Promise<SettingEntry & {origin: string}> {
    const {args} = await this.parse(ConfigGet)
    const {line, result} = configGet(await this.settings(), args.key)
    this.log(line)
    return result
  }
}
