import {makePaint, oneLine} from '@hanzo-dev/sdk'
import {Command} from '@oclif/core/command'
import * as Flags from '@oclif/core/flags'

import {inRepository, interactive, modelChoice, modelFlags} from '../command-support.js'
import type {PrResult} from '../pr-flow.js'
import {renderCommit} from './commit.js'

export default class CommitPushPr extends Command {
  static enableJsonFlag = true

  static description = `Commit, push the branch and open a pull request, in one step.

Commits as hanzo-dev commit does (tracked changes staged, --all for new files too, a model-written message you accept, edit, regenerate or cancel; the hooks run), then runs git push -u origin HEAD and gh pr create with a title and body the model writes from the branch's commits (or --title and --body). On the default branch or a detached HEAD the commit goes on a new branch named for the message: you are asked for its name, --yes or no terminal takes the suggested one. With nothing to commit, a branch with commits origin does not have is pushed and proposed as it is.

Without gh, or when gh is not logged in, the commit and push still happen and the compare URL is printed to open the pull request in a browser. A rejected push (non-fast-forward, credentials, no origin) is an error that says what to do; the commit stays.

Exit codes: 0 done (also: nothing to do, or no gh), 1 error (git, a hook, the push, the model, gh), 2 usage, 130 cancelled.`

  static examples = [
    '<%= config.bin %> commit-push-pr',
    '<%= config.bin %> commit-push-pr --yes --draft',
    '<%= config.bin %> commit-push-pr --base develop --title "Fix the parser" --body "Keeps trailing commas."',
    '<%= config.bin %> commit-push-pr --all --yes --json',
  ]

  static flags = {
    base: Flags.string({description: "The branch the pull request goes into (default: origin's default branch)."}),
    draft: Flags.boolean({description: 'Open the pull request as a draft.'}),
    title: Flags.string({description: 'The pull request title (default: written by the model).'}),
    body: Flags.string({description: 'The pull request body (default: written by the model).'}),
    all: Flags.boolean({
      char: 'a',
      description: 'Also stage new (untracked, not ignored) files; they are listed first.',
    }),
    yes: Flags.boolean({
      char: 'y',
      description: "Accept the model's message and the suggested branch name without asking.",
    }),
    'no-verify': Flags.boolean({description: "Skip the repository's pre-commit and commit-msg hooks."}),
    ...modelFlags,
  }

  async run(): Promise<PrResult> {
    const {flags} = await this.parse(CommitPushPr)
    const [{commitPushPr}, {openMessageWriter}] = await Promise.all([
      import('../pr-flow.js'),
      import('../model-session.js'),
    ])
    const result = await inRepository(this, (repo) =>
      commitPushPr(repo, {
        all: flags.all,
        askBranch,
        base: flags.base,
        body: flags.body,
        draft: flags.draft,
        interactive: interactive(),
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
        title: flags.title,
        yes: flags.yes,
      }),
    )
    if (!this.jsonEnabled()) this.log(render(result))
    // The result is still printed (and --json still answers): the commit and push happened.
    if (result.pullRequest.status === 'failed') process.exitCode = 1
    return result
  }
}

async function askBranch(suggested: string, from: string): Promise<string | undefined> {
  const {input} = await import('@inquirer/prompts')
  const name = await input(
    {default: suggested, message: `You are on ${from}; the pull request needs a branch. Its name (empty cancels):`},
    {output: process.stderr},
  )
  return name.trim() || undefined
}

function render(result: PrResult): string {
  const paint = makePaint(process.stdout)
  const lines: string[] = []
  if (result.commit.committed) lines.push(renderCommit(result.commit))
  if (!result.pushed)
    return [...lines, result.commit.committed ? '' : 'Nothing to commit, and nothing to push.']
      .filter(Boolean)
      .join('\n')
  lines.push(`${paint.green('Pushed')} ${result.branch} to ${result.remote}`)
  // gh, the git host and the remote's URL wrote these: through the printer.
  const {compareUrl, reason, url} = result.pullRequest
  const pr = {
    ...result.pullRequest,
    compareUrl: compareUrl && oneLine(compareUrl),
    reason: reason && oneLine(reason),
    url: url && oneLine(url),
  }
  const compare = pr.compareUrl
    ? `open it in your browser: ${pr.compareUrl}`
    : `open it on your git host for the branch ${result.branch}`
  switch (pr.status) {
    case 'created':
      lines.push(`${paint.green('Pull request')} ${pr.url ?? '(gh printed no URL)'}`)
      break
    case 'exists':
      lines.push(`A pull request for ${result.branch} is open already: ${pr.url}`)
      break
    case 'no-gh':
      lines.push(
        `No pull request: gh (the GitHub CLI) is not installed; ${compare}`,
        paint.dim(
          'install gh (https://cli.github.com), run gh auth login, and commit-push-pr opens it for you next time',
        ),
      )
      break
    case 'not-logged-in':
      lines.push(
        `No pull request: gh is not logged in${pr.reason ? ` (${pr.reason})` : ''}; ${compare}`,
        paint.dim('run gh auth login, and commit-push-pr opens it for you next time'),
      )
      break
    default:
      lines.push(paint.red(`No pull request: ${pr.reason ?? 'gh failed'}`), compare)
  }

  return lines.join('\n')
}
