/**
 * `node dist/testing/fake-model/main.js [--port N] <script.json>`: serves the script, prints the
 * base URL (ending in /v1) as the only line on stdout, and runs until SIGINT or SIGTERM.
 * For tests and demos only; nothing the CLI loads imports this file.
 */
import {parseArgs} from 'node:util'

import {startFakeModel} from './server.js'

const USAGE = 'usage: node dist/testing/fake-model/main.js [--port N] <script.json>'

const {port, script} = readArguments()
try {
  const model = await startFakeModel(script, {port})
  process.stdout.write(`${model.url}\n`)
  const stop = () => {
    model.close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }

  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} catch (error) {
  fail((error as Error).message, 1)
}

function readArguments(): {port: number; script: string} {
  let problem = ''
  try {
    const {positionals, values} = parseArgs({allowPositionals: true, options: {port: {default: '0', type: 'string'}}})
    const port = Number(values.port)
    if (positionals.length === 1 && Number.isInteger(port) && port >= 0) return {port, script: positionals[0]!}
  } catch (error) {
    problem = `${(error as Error).message}\n`
  }

  return fail(`${problem}${USAGE}`, 2)
}

function fail(message: string, code: number): never {
  process.stderr.write(`${message}\n`)
  process.exit(code)
}
