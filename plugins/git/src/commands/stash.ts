import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {inRepository} from '../command-support.js'
import type {StashResult} from '../stash.js'

export type {StashResult} from '../stash.js'

export default class Stash extends Command {
  static enableJsonFlag = true

  static description = `Stash the working tree and index changes (git stash push).

The entry is named "hanzo: <ISO timestamp>" unless -m names it.

git stash pop brings them back. With nothing to stash, it says so and exits 0.`

  static examples = [
    '<%= config.bin %> stash',
    '<%= config.bin %> stash -m "half-done parser change"',
    '<%= config.bin %> stash --include-untracked --json',
  ]

  static flags = {
    message: Flags.string({char: 'm', description: 'The stash entry\'s message (default: "hanzo: " and the time).'}),
    'include-untracked': Flags.boolean({char: 'u', description: 'Stash new (untracked) files too.'}),
  }

  async run(): Promise<StashResult> {
    const {flags} = await this.parse(Stash)
    const {stashChanges} = await import('../stash.js')
    const result = await inRepository(this, (repo) =>
      stashChanges(repo, {includeUntracked: flags['include-untracked'], message: flags.message}),
    )
    if (!this.jsonEnabled())
      this.log(
        result.stashed ? `Stashed as stash@{0}: ${result.message} (git stash pop brings it back)` : 'Nothing to stash.',
      )
    return result
  }
}
