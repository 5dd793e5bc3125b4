import {greet} from '../lib/greet.js'

/**
 * `hanzo-dev hello [NAME] [--json]`.
 *
 * oclif runs any class with a static `run(argv, config)`; the static `summary`, `args` and
 * `flags` (in the manifest's shape) feed `--help` and `oclif.manifest.json`. Extending
 * @oclif/core's Command would add its parser and error rendering, but also a dependency, and
 * this example shows a plugin can do without one. `--help` never reaches `run`: the host
 * answers it from the manifest.
 */
export default class Hello {
  static summary = 'Say hello (an example third-party plugin).'

  static description = 'Prints a greeting. The same greeting is available to the agent as the hello_greet tool.'

  static examples = ['<%= config.bin %> hello', '<%= config.bin %> hello Ada --json']

  static args = {
    name: {description: 'Who to greet.', name: 'name', required: false},
  }

  static flags = {
    json: {allowNo: false, description: 'Format output as json.', name: 'json', type: 'boolean'},
  }

  static async run(argv) {
    const json = argv.includes('--json')
    const rest = argv.filter((a) => a !== '--json')
    const unknown = rest.find((a) => a.startsWith('-'))
    if (unknown || rest.length > 1) {
      const problem = unknown ? `unknown flag ${unknown}` : `unexpected argument ${rest[1]}`
      process.stderr.write(`Error: ${problem}\nUsage: hanzo-dev hello [NAME] [--json]\n`)
      process.exitCode = 2
      return
    }

    const greeting = greet(rest[0])
    process.stdout.write(json ? `${JSON.stringify({greeting})}\n` : `${greeting}\n`)
    return {greeting}
  }
}
