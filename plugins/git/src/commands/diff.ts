import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {inRepository} from '../command-support.js'
import type {StagedChange} from '../staged-change.js'

export default class Diff extends Command {
  static enableJsonFlag = true

  static description = `Show the changes against HEAD, staged and unstaged (--staged: staged only).

On a terminal git colours it and pages it (your pager settings apply; NO_COLOR turns colour off). --stat shows changed files and line counts. --json gives the files and the diff (cut at 60,000 characters; binary and lock files summarized) for scripts. New files not yet added are not part of it (git add -N shows them).`

  static examples = [
    '<%= config.bin %> diff',
    '<%= config.bin %> diff --staged --stat',
    '<%= config.bin %> diff --json | jq ".files[].path"',
  ]

  static flags = {
    staged: Flags.boolean({description: 'Only what is staged (the next commit).', aliases: ['cached']}),
    stat: Flags.boolean({description: 'Files and line counts only.'}),
  }

  async run(): Promise<Omit<StagedChange, 'diff'> & {diff?: string}> {
    const {flags} = await this.parse(Diff)
    const [{GitError}, {emptyTree}, {readChange}] = await Promise.all([
      import('../git-cli.js'),
      import('../repository.js'),
      import('../staged-change.js'),
    ])
    return inRepository(this, async (repo) => {
      const base = repo.hasHead ? 'HEAD' : await emptyTree(repo)
      const which = flags.staged ? ['--cached', base] : [base]
      if (this.jsonEnabled()) {
        const change = await readChange(repo, which)
        return flags.stat ? {files: change.files, truncated: false} : change
      }

      const colour = process.env.NO_COLOR ? ['--no-color'] : []
      const {execa} = await import('execa')
      // git itself colours and pages on a terminal, as the user has it set up.
      const shown = await execa('git', ['diff', ...colour, ...(flags.stat ? ['--stat'] : []), ...which, '--'], {
        cwd: repo.root,
        reject: false,
        stdio: 'inherit',
      })
      if (shown.failed) throw new GitError(`git diff failed (exit ${shown.exitCode ?? shown.signal})`)
      return {files: [], truncated: false}
    })
  }
}
