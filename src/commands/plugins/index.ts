import * as Flags from '@oclif/core/flags'
import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {HanzoCommand} from '../../cli/base-command.js'
import {makeStyle} from '../../adapters/style.js'

interface PluginRow {
  name: string
  version: string
  type: string
  root: string
}

/**
 * Replaces @oclif/plugin-plugins' listing, which hides core plugins: here the plugins that
 * ship with hanzo-dev are capabilities a user should see next to the ones they installed.
 */
export default class PluginsList extends HanzoCommand {
  static description = `List the plugins that ship with hanzo-dev and the ones you installed or linked.

Each plugin is core (it ships with hanzo-dev), user (you installed it with "plugins install") or link (you develop it, linked with "plugins link"); --type shows one kind.`

  static examples = [
    '<%= config.bin %> plugins',
    '<%= config.bin %> plugins --type user',
    '<%= config.bin %> plugins --json',
  ]

  static flags = {
    type: Flags.string({description: 'Show only plugins of this type.', options: ['core', 'user', 'link']}),
  }

  async run(): Promise<PluginRow[]> {
    const {flags} = await this.parse(PluginsList)
    const rows = this.config
      .getPluginsList()
      .filter((p) => p.root !== this.config.root && !p.parent && (!flags.type || p.type === flags.type))
      .map((p) => ({name: p.name, root: p.root, type: p.type, version: p.version}))
      .sort((a, b) => a.name.localeCompare(b.name))

    const style = makeStyle(process.stdout)
    for (const type of ['core', 'user', 'link', 'dev']) {
      const group = rows.filter((r) => r.type === type)
      if (group.length === 0) continue
      this.log(style.bold(type))
      // A linked plugin's package.json says what it likes: its words through the printer.
      for (const r of group)
        this.log(
          `  ${oneLine(r.name)} ${style.dim(oneLine(r.version))}${type === 'link' ? style.dim(`  ${oneLine(r.root, Number.POSITIVE_INFINITY)}`) : ''}`,
        )
    }

    if (rows.length === 0) this.log(flags.type ? `No ${flags.type} plugins.` : 'No plugins.')
    return rows
  }
}
