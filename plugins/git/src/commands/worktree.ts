import * as Args from '@oclif/core/args'
import {Command} from '@oclif/core/command'

import {inRepository} from '../command-support.js'

export interface WorktreeResult {
  path: string
  branch: string
}

export default class Worktree extends Command {
  static enableJsonFlag = true

  static description = `Make a working tree for a new branch beside the repository.

It runs git worktree add ../REPO-NAME -b NAME.

The new branch starts at HEAD; the path (a / in NAME becomes -) is printed on stdout, so cd "$(hanzo-dev worktree NAME)" goes there. An invalid or existing branch name, or a path that exists, is an error that says so.`

  static examples = [
    '<%= config.bin %> worktree try-parser',
    'cd "$(<%= config.bin %> worktree fix/flaky-test)"',
    '<%= config.bin %> worktree spike --json',
  ]

  static args = {
    name: Args.string({description: 'The new branch (and the end of the directory name).', required: true}),
  }

  async run(): Promise<WorktreeResult> {
    const {args} = await this.parse(Worktree)
    const {addWorktree} = await import('../worktree.js')
    const result = await inRepository(this, (repo) => addWorktree(repo, args.name))
    if (!this.jsonEnabled()) {
      this.logToStderr(`Made a working tree for the new branch ${result.branch}:`)
      this.log(result.path)
    }

    return result
  }
}
