import {makePaint, oneLine} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {inRepository, interactive, modelChoice, modelFlags} from '../command-support.js'
import type {CommitResult} from '../commit-flow.js'

export default class Commit extends Command {
  static enableJsonFlag = true

  static description = `Stage tracked changes and commit them with a model-written message.

The staged diff goes to the model (cut when large, with a list of every file; binary and lock files are summarized, not pasted), which answers in the Conventional Commits style (\`type(scope): subject\`, at most 72 characters, then a body when useful). On a terminal you then accept the message, edit it in your editor (the one git uses: GIT_EDITOR, core.editor, VISUAL, EDITOR), have another written, or cancel; cancelling, Ctrl-C or a failed model call puts the index back exactly as it was. With --yes, or off a terminal, the message is accepted. -m or -F gives the message and skips the model.

The repository's commit hooks run (unless --no-verify). When one rejects the commit, the message is kept in .git/HANZO_COMMIT_MSG and the changes stay staged: fix what the hook says, then run hanzo-dev commit -F .git/HANZO_COMMIT_MSG.

Exit codes: 0 committed or nothing to commit, 1 error (git, a hook, the model), 2 usage, 130 cancelled.`

  static examples = [
    '<%= config.bin %> commit',
    '<%= config.bin %> commit --all --yes',
    '<%= config.bin %> commit -m "fix(parser): keep trailing commas"',
    '<%= config.bin %> commit -F .git/HANZO_COMMIT_MSG',
    '<%= config.bin %> commit --amend --json',
  ]

  static flags = {
    message: Flags.string({char: 'm', description: 'The commit message; the model is not asked.', exclusive: ['file']}),
    file: Flags.string({
      char: 'F',
      description: 'Read the commit message from FILE; the model is not asked.',
      helpValue: 'FILE',
    }),
    all: Flags.boolean({
      char: 'a',
      description: 'Also stage new (untracked, not ignored) files; they are listed first.',
    }),
    yes: Flags.boolean({char: 'y', description: "Accept the model's message without asking."}),
    amend: Flags.boolean({
      description: 'Replace the last commit (its message is rewritten for the whole amended change).',
    }),
    'no-verify': Flags.boolean({description: "Skip the repository's pre-commit and commit-msg hooks."}),
    ...modelFlags,
  }

  async run(): Promise<CommitResult> {
    const {flags} = await this.parse(Commit)
    const [{commitChanges}, {openMessageWriter}] = await Promise.all([
      import('../commit-flow.js'),
      import('../model-session.js'),
    ])
    const result = await inRepository(this, (repo) =>
      commitChanges(repo, {
        all: flags.all,
        amend: flags.amend,
        file: flags.file,
        interactive: interactive(),
        message: flags.message,
        noVerify: flags['no-verify'],
        openWriter: (systemPrompt) =>
          openMessageWriter(this.config, {
            ...modelChoice(flags),
            cwd: process.cwd(),
            env: process.env,
            systemPrompt,
            warn: (m) => this.warn(m),
          }),
        paint: makePaint(process.stdout),
        yes: flags.yes,
      }),
    )
    if (!this.jsonEnabled()) this.log(renderCommit(result))
    return result
  }
}

export function renderCommit(result: CommitResult): string {
  if (!result.committed) {
    const untracked = result.untracked > 0 ? ` (${result.untracked} new file(s) not tracked: --all adds them)` : ''
    return `Nothing to commit${untracked}.`
  }

  const paint = makePaint(process.stdout)
  const where = result.branch ?? 'detached HEAD'
  // The model wrote the message: through the printer.
  const subject = oneLine(result.message.split('\n', 1)[0], Number.POSITIVE_INFINITY)
  return `${paint.green(result.amended ? 'Amended' : 'Committed')} [${where} ${result.sha.slice(0, 7)}] ${subject}\n${paint.dim(`${result.files.length} file(s) changed`)}`
}
