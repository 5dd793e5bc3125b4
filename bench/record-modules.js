// Preload that lists every module a process loads, one file URL a line, into the file named by
// RECORD_MODULES_TO: `NODE_OPTIONS=--import=./bench/record-modules.js RECORD_MODULES_TO=out.txt`.
// ESM loads are seen by a loader hook (it runs on the loader thread, so it appends as it goes);
// what CommonJS `require` loads by itself never passes the hook and is read from the require
// cache at exit. Used by bench/startup-profile.js and by test/e2e/startup.test.ts.
import {appendFileSync} from 'node:fs'
import {createRequire, register} from 'node:module'
import {pathToFileURL} from 'node:url'

const out = process.env.RECORD_MODULES_TO
if (out) {
  const hooks = `
    import {appendFileSync} from 'node:fs'
    let out
    export function initialize(data) { out = data.out }
    export async function load(url, context, next) {
      appendFileSync(out, url + '\\n')
      return next(url, context)
    }`
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url, {data: {out}})

  const {cache} = createRequire(import.meta.url)
  process.on('exit', () => {
    const files = Object.keys(cache).map((file) => pathToFileURL(file).href)
    appendFileSync(out, files.map((url) => `${url}\n`).join(''))
  })
}
