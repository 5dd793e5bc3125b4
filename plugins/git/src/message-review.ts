import {readFile, writeFile} from 'node:fs/promises'
import {type Paint, printable} from '@hanzo-dev/sdk'

import {SUBJECT_LIMIT, subjectOf} from './commit-message.js'
import {git} from './git-cli.js'
import type {Repository} from './repository.js'

export type ReviewChoice = 'accept' | 'edit' | 'regenerate' | 'cancel'

export interface ReviewOptions {
  repo: Repository
  /** Where the message is edited (`.git/HANZO_COMMIT_MSG`). */
  file: string
  paint: Paint
  /** Another message from the model. */
  regenerate(): Promise<string>
  /** Asks which; the default is inquirer's select on stderr. */
  choose?(): Promise<ReviewChoice>
}

const EDIT_HELP = `
# Write the commit message above. Lines starting with '#' are left out;
# an empty message keeps the one you had.`

/** The message on stderr, then accept / edit / regenerate / cancel until accepted (the message) or cancelled (undefined). */
export async function reviewMessage(message: string, options: ReviewOptions): Promise<string | undefined> {
  const choose = options.choose ?? askChoice
  let current = message
  for (;;) {
    showMessage(current, options.paint)
    const choice = await choose()
    if (choice === 'accept') return current
    if (choice === 'cancel') return undefined
    if (choice === 'regenerate') {
      current = await options.regenerate()
      continue
    }

    const edited = await editMessage(current, options)
    if (edited) current = edited
    else process.stderr.write(options.paint.yellow('The edited message is empty: keeping the one before.\n'))
  }
}

/** The model wrote the message: shown through the printer, so the terminal obeys none of it. */
function showMessage(message: string, paint: Paint): void {
  const rule = paint.dim('─'.repeat(40))
  const subject = subjectOf(message)
  const long =
    subject.length > SUBJECT_LIMIT
      ? `\n${paint.yellow(`The subject line is ${subject.length} characters (more than ${SUBJECT_LIMIT}).`)}`
      : ''
  process.stderr.write(`\n${rule}\n${printable(message)}\n${rule}${long}\n`)
}

async function askChoice(): Promise<ReviewChoice> {
  const {select} = await import('@inquirer/prompts')
  return select<ReviewChoice>(
    {
      choices: [
        {name: 'Accept', value: 'accept'},
        {name: 'Edit', description: 'open the message in your editor (git var GIT_EDITOR)', value: 'edit'},
        {name: 'Regenerate', description: 'ask the model for another', value: 'regenerate'},
        {name: 'Cancel', description: 'commit nothing; the index is put back as it was', value: 'cancel'},
      ],
      message: 'Commit with this message?',
    },
    {output: process.stderr},
  )
}

/** The message after the user's editor (the one git would start: GIT_EDITOR, core.editor, VISUAL, EDITOR), comment lines left out. */
export async function editMessage(message: string, options: Pick<ReviewOptions, 'file' | 'repo'>): Promise<string> {
  await writeFile(options.file, `${message}\n${EDIT_HELP}\n`)
  const editor = await git(['var', 'GIT_EDITOR'], options.repo.context)
  const command = editor.ok ? editor.stdout.trim() : 'vi'
  // The editor setting is a shell command line ("code --wait"), which git too runs with sh; the file is an argument, never part of the line.
  const {execa} = await import('execa')
  const run = await execa('sh', ['-c', `${command} "$@"`, command, options.file], {
    cwd: options.repo.root,
    reject: false,
    stdio: 'inherit',
  })
  if (run.failed) {
    process.stderr.write(
      `The editor (${command}) exited with ${run.exitCode ?? run.signal}: keeping the message as it was.\n`,
    )
    return message
  }

  const text = await readFile(options.file, 'utf8')
  return text
    .split('\n')
    .filter((line) => !line.startsWith('#'))
    .join('\n')
    .replaceAll(/[ \t]+$/gm, '')
    .trim()
}
