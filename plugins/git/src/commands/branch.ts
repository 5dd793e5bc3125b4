import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {inRepository} from '../command-support.js'

export interface BranchResult {
  branch: string
  /** The commit it starts at; null on a branch with no commit yet. */
  from: string | null
  /** The branch left, null from a detached HEAD. */
  previous: string | null
}

export default class Branch extends Command {
  static enableJsonFlag = true

  static description = `Create a branch from HEAD and switch to it (git checkout -b NAME).

Changes in the working tree and the index come along. A name that git does not accept (git check-ref-format --branch) or that a branch has already is an error that says so.`

  static examples = ['<%= config.bin %> branch feature/verbose-flag', '<%= config.bin %> branch fix-123 --json']

  static args = {name: Args.string({description: 'The new branch.', required: true})}

  async run(): Promise<BranchResult> {
    const {args} = await this.parse(Branch)
    const {createBranch} = await import('../branches.js')
    const {git} = await import('../git-cli.js')
    const result = await inRepository(this, async (repo) => {
      await createBranch(repo, args.name)
      const head = await git(['rev-parse', '--verify', '--quiet', 'HEAD'], repo.context)
      return {branch: args.name, from: head.ok ? head.stdout.trim() : null, previous: repo.branch ?? null}
    })
    if (!this.jsonEnabled())
      this.log(`Switched to a new branch ${result.branch}${result.from ? ` at ${result.from.slice(0, 7)}` : ''}`)
    return result
  }
}
