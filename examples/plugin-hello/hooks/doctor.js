import {API_VERSION} from '../lib/greet.js'

/** Answers `hanzo:doctor` with one check; `hanzo-dev doctor` lists it under this plugin's name. */
export default async function doctor() {
  return {
    apiVersion: API_VERSION,
    checks: [
      {
        detail: 'command "hello", tool "hello_greet"',
        id: 'hello.ready',
        status: 'ok',
        title: 'hello plugin loaded',
      },
    ],
  }
}
