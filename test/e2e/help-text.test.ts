import {readFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'

import {makeSandbox, REPO_ROOT, runCli, type Sandbox, unwrapped} from '../helpers/cli.js'

/**
 * Help is written as paragraphs and wrapped by oclif to the terminal. A paragraph wrapped in the
 * source comes out ragged (oclif wraps each source line on its own), a first line longer than
 * the terminal is cut by the terminal mid-word, and one long word (oclif's "(a|b|c)" list of an
 * argument's options) is broken mid-word by oclif itself.
 */

const rootPjson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'))
const packages = ['.', ...(rootPjson.workspaces as string[])].filter(
  (dir) => JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package.json'), 'utf8')).oclif,
)

interface ManifestText {
  description?: string
  summary?: string
}
interface ManifestCommand extends ManifestText {
  flags?: Record<string, ManifestText>
  args?: Record<string, ManifestText>
}

/** Every help text of our commands, as the committed manifests hold it, named for a failure message. */
function helpTexts(): Array<{where: string; text: string; summary: boolean}> {
  const texts: Array<{where: string; text: string; summary: boolean}> = []
  for (const dir of packages) {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, dir, 'oclif.manifest.json'), 'utf8')) as {
      commands: Record<string, ManifestCommand>
    }
    for (const [id, command] of Object.entries(manifest.commands)) {
      const first = command.summary ?? command.description ?? ''
      texts.push({summary: true, text: first.split('\n')[0], where: `${id} (first line)`})
      for (const [field, text] of Object.entries({description: command.description, summary: command.summary})) {
        if (text) texts.push({summary: false, text, where: `${id} ${field}`})
      }

      for (const [kind, entries] of [
        ['flag', command.flags],
        ['arg', command.args],
      ] as const) {
        for (const [name, entry] of Object.entries(entries ?? {})) {
          for (const text of [entry.description, entry.summary])
            if (text) texts.push({summary: false, text, where: `${id} ${kind} ${name}`})
        }
      }
    }
  }

  return texts
}

// Renders every command's help as `hanzo-dev <command> --help` prints it (Help.showCommandHelp,
// its log captured), at each width, in one child process: one CLI start per command and width
// would take a minute. Run as `npm run build` runs oclif (NODE_ENV=production).
const RENDER = `
import {Config, loadHelpClass} from '@oclif/core'
const config = await Config.load({devPlugins: false, root: process.argv[1], userPlugins: false})
const Help = await loadHelpClass(config)
class Captured extends Help {
  lines = []
  log(...args) { this.lines.push(args.join(' ')) }
}
const out = {}
// Formatting rewrites the ids of the commands it lists with the topic separator: put them back after each.
const ids = config.commands.map((command) => [command, command.id, command.aliases])
for (const width of JSON.parse(process.argv[2])) {
  for (const [command, id] of ids) {
    if (command.hidden || command.aliases?.includes(id)) continue
    const help = new Captured(config, {maxWidth: width, stripAnsi: true})
    await help.showCommandHelp(command)
    for (const [c, original, aliases] of ids) Object.assign(c, {aliases, id: original})
    ;(out[id] ??= {})[width] = help.lines.join('\\n')
  }
}
process.stdout.write(JSON.stringify(out))
`

/** The help without its EXAMPLES section: examples are commands, never wrapped (a broken line would not paste). */
function withoutExamples(help: string): string[] {
  const lines: string[] = []
  let inExamples = false
  for (const line of help.split('\n')) {
    if (/^[A-Z][A-Z ]+$/.test(line)) inExamples = line === 'EXAMPLES'
    if (!inExamples) lines.push(line)
  }

  return lines
}

const words = (lines: string[]) => lines.join(' ').split(/\s+/).filter(Boolean)

describe('help text', () => {
  let box: Sandbox
  let rendered: Record<string, Record<number, string>>
  beforeAll(async () => {
    box = makeSandbox()
    const {exitCode, stderr, stdout} = await execa(
      process.execPath,
      ['--input-type=module', '-e', RENDER, REPO_ROOT, '[80,120,10000]'],
      {
        cwd: REPO_ROOT,
        env: {...box.env, NODE_ENV: 'production'},
        reject: false,
      },
    )
    expect(exitCode, stderr).toBe(0)
    rendered = JSON.parse(stdout)
  })
  afterAll(() => box.cleanup())

  it('is written as paragraphs: no line break inside one, for oclif to wrap', () => {
    const ragged = helpTexts()
      .filter(
        ({summary, text}) =>
          !summary &&
          text
            .trim()
            .split(/\n\s*\n/)
            .some((paragraph) => paragraph.includes('\n')),
      )
      .map(({where}) => where)
    expect(ragged, 'write each paragraph on one line; separate paragraphs by a blank line').toEqual([])
  })

  it("keeps each command's first line within 80 columns (oclif prints it unwrapped)", () => {
    const long = helpTexts()
      .filter(({summary, text}) => summary && text.length > 80)
      .map(({text, where}) => `${where}: ${text.length} columns`)
    expect(long).toEqual([])
  })

  it('covers every command, ours and the core plugins', () => {
    expect(Object.keys(rendered)).toEqual(
      expect.arrayContaining(['run', 'config:keys', 'config:set', 'hooks:test', 'sandbox:check', 'plugins:install']),
    )
  })

  it.each([80, 120])('fits %i columns and breaks lines only between words', (width) => {
    const problems: string[] = []
    for (const [id, byWidth] of Object.entries(rendered)) {
      const lines = withoutExamples(byWidth[width])
      for (const line of lines) if (line.length > width) problems.push(`${id}: ${line.length} columns: ${line}`)
      // Wrapped at spaces, the words are those of the unwrapped help; a word cut in two is not.
      const wide = words(withoutExamples(byWidth[10_000]))
      const narrow = words(lines)
      const at = narrow.findIndex((word, i) => word !== wide[i])
      if (at !== -1 || narrow.length !== wide.length)
        problems.push(`${id}: "${wide[at]}" is broken into "${narrow[at]}" "${narrow[at + 1]}"`)
    }

    expect(problems).toEqual([])
  })

  it('hooks test lists its events whole on an 80-column terminal, and refuses another as a usage error', async () => {
    const help = await runCli(['hooks', 'test', '--help'], {cwd: box.home, env: {...box.env, OCLIF_COLUMNS: '80'}})
    expect(help.exitCode).toBe(0)
    for (const event of [
      'pre_tool_use',
      'post_tool_use',
      'session_start',
      'user_prompt_submit',
      'stop',
      'pre_compact',
    ]) {
      expect(help.stdout).toMatch(new RegExp(`(^|[\\s,:])${event}[,.]`, 'm'))
    }

    const wrong = await runCli(['hooks', 'test', 'pre_tool'], {cwd: box.home, env: box.env})
    expect(wrong.exitCode).toBe(2)
    expect(unwrapped(wrong.stderr)).toContain(
      'Unknown hook event "pre_tool": use one of pre_tool_use, post_tool_use, session_start',
    )
    expect(wrong.stderr).not.toMatch(/\n\s+at /)
  })
})
