// Preload that lists every file the process reads through fs.readFile / fs.promises.readFile /
// fs.readFileSync, one path a line, into the file named by RECORD_READS_TO. Calls made through
// the `fs` objects (as CommonJS code such as oclif makes them) are seen; an ES module's named
// imports of node:fs were bound before this ran, and are not.
import fs, {appendFileSync} from 'node:fs'

const out = process.env.RECORD_READS_TO
if (out) {
  const note = (path) => typeof path === 'string' && appendFileSync(out, `${path}\n`)
  for (const [target, name] of [
    [fs, 'readFile'],
    [fs, 'readFileSync'],
    [fs.promises, 'readFile'],
  ]) {
    const original = target[name]
    target[name] = function (path, ...rest) {
      note(path)
      return original.call(this, path, ...rest)
    }
  }
}
