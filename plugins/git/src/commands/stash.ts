import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {inRepository} from '../command-support.js'

export interface StashResult {
  stashed: boolean
  /** `stash@{0}` when something was stashed. */
  ref?: string
  sha?: string
  message?: string
}

export default class Stash extends Command {
  static enableJsonFlag = true

  static description = `Stash the working tree and index changes (git stash push).

The entry is named "hanzo: <ISO timestamp>" unless -m names it.

git stash pop brings them back. With nothing to stash, it says so and exits 0.`

  static examples = ['<%= config.bin %> stash', '<%= config.bin %> stash -m "half-done parser change"', '<%= config.bin %> stash --include-untracked --json']

  static flags = {
    message: Flags.string({char: 'm', description: 'The stash entry\'s message (default: "hanzo: " and the time).'}),
    'include-untracked': Flags.boolean({char: 'u', description: 'Stash new (untracked) files too.'}),
  }

  async run(): Promise<StashResult> {
    const {flags} = await this.parse(Stash)
    const {git, gitFailure} = await import('../git-cli.js')
    const result = await inRepository(this, async (repo): Promise<StashResult> => {
      const message = flags.message ?? `hanzo: ${new Date().toISOString()}`
      const before = await git(['rev-parse', '--verify', '--quiet', 'refs/stash'], repo.context)
      const pushed = await git(['stash', 'push', '--quiet', '-m', message, ...(flags['include-untracked'] ? ['--include-untracked'] : [])], repo.context)
      if (!pushed.ok) throw gitFailure('Cannot stash', pushed)
      const after = await git(['rev-parse', '--verify', '--quiet', 'refs/stash'], repo.context)
      if (!after.ok || after.stdout === before.stdout) return {stashed: false}
      return {message, ref: 'stash@{0}', sha: after.stdout.trim(), stashed: true}
    })
    if (!this.jsonEnabled()) this.log(result.stashed ? `Stashed as stash@{0}: ${result.message} (git stash pop brings it back)` : 'Nothing to stash.')
    return result
  }
}
