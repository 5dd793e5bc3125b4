import {UserError} from '../core/errors.js'

/**
 * The task `hanzo-dev run` works on: its argument, or stdin for `-`. Piped into a run that has a
 * task, stdin is context for it (`git diff | hanzo-dev run "review this"`), as with Claude Code's
 * `-p`: it follows the task in a `<stdin>` block. Read to its end, so a pipe that never closes
 * holds the run (`</dev/null` gives it nothing); a terminal is never read.
 */
export async function readTask(argument: string, stdin: NodeJS.ReadStream): Promise<string> {
  if (argument === '-') {
    if (stdin.isTTY)
      throw new UserError('Nothing on stdin to read the task from', {
        exitCode: 2,
        hint: 'pipe the task in, e.g. echo "..." | hanzo-dev run -',
      })
    return readAll(stdin)
  }

  const context = stdin.isTTY ? '' : (await readAll(stdin)).replace(/\s+$/, '')
  return context.trim() === '' ? argument : `${argument}\n\n<stdin>\n${context}\n</stdin>`
}

async function readAll(stream: NodeJS.ReadStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}
