import * as Args from '@oclif/core/args'

import {CheckpointStore} from '../../adapters/checkpoints/store.js'
import {SessionStore} from '../../adapters/session-store.js'
import {HanzoCommand} from '../../cli/base-command.js'

export default class SessionsDelete extends HanzoCommand {
  static description = `Delete a saved session: its transcript and its checkpoints.

Both are removed from your data dir. Asks nothing: the id names one session (a prefix must match only one), and the files are your own records, not the project's.`

  static examples = [
    '<%= config.bin %> sessions delete 2b6c1f3a',
    '<%= config.bin %> sessions list --json | jq -r ".sessions[].id" | xargs -n1 <%= config.bin %> sessions delete',
  ]

  static args = {
    id: Args.string({description: 'The session id, or the start of it (sessions list shows them).', required: true}),
  }

  async run(): Promise<{id: string; path: string; deleted: true; checkpoints: boolean}> {
    const {args} = await this.parse(SessionsDelete)
    const store = SessionStore.at(this.paths.dataDir)
    const session = await store.find(args.id)
    await store.delete(session)
    const checkpoints = await CheckpointStore.at(this.paths.dataDir).deleteSession(session.id)
    this.log(`Deleted session ${session.id}${checkpoints ? ' and its checkpoints' : ''}.`)
    return {checkpoints, deleted: true, id: session.id, path: session.path}
  }
}
