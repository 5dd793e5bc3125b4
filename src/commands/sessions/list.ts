import * as Flags from '@oclif/core/flags'

import {listSessions} from '../../adapters/session-listing.js'
import {loadPrices} from '../../adapters/prices.js'
import {SessionStore} from '../../adapters/session-store.js'
import {HanzoCommand} from '../../cli/base-command.js'
import {type ListedSession, renderSessionList} from '../../core/sessions/render.js'

export default class SessionsList extends HanzoCommand {
  static description = `List saved sessions, newest first: this project's, or all of them with --all.

Every hanzo-dev run is saved as a session in your data dir ($XDG_DATA_HOME/hanzo-dev/sessions); hanzo-dev run --continue or --resume ID carries one on. TURNS counts model requests; tokens add up every run of the session. COST shows when every model of the session has a price (at today's prices): from the model catalog hanzo-dev ships, or your pricing setting (USD per million tokens), which overrides it: hanzo-dev config set pricing.gpt-4o '{"input": 2.5, "output": 10}'.`

  static examples = [
    '<%= config.bin %> sessions list',
    '<%= config.bin %> sessions list --all --limit 50',
    '<%= config.bin %> sessions list --json | jq -r ".sessions[0].id"',
  ]

  static flags = {
    all: Flags.boolean({description: "Every project's sessions, with their project."}),
    limit: Flags.integer({default: 20, description: 'Show at most this many sessions.', min: 1}),
  }

  async run(): Promise<{sessions: Array<ListedSession & {path: string}>}> {
    const {flags} = await this.parse(SessionsList)
    const {config, projectRoot} = await this.settings()
    const store = SessionStore.at(this.paths.dataDir)
    const sessions = await listSessions(store, {
      limit: flags.limit,
      prices: await loadPrices(config.pricing),
      projectRoot: flags.all ? undefined : projectRoot,
      warn: (message) => this.warn(message),
    })
    if (sessions.length > 0) {
      for (const line of renderSessionList(sessions, {allProjects: flags.all})) this.log(line)
    } else {
      this.log(flags.all ? 'No saved sessions.' : `No saved sessions in ${projectRoot} (--all lists every project's).`)
    }

    return {sessions}
  }
}
