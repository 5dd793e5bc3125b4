import {createHash} from 'node:crypto'
import {readdirSync, readFileSync} from 'node:fs'
import {join, relative} from 'node:path'

/** Every file under `dir` (`.git` included) with its SHA-256: what "byte-identical" is checked against. */
export function treeHashes(dir: string): Record<string, string> {
  const hashes: Record<string, string> = {}
  const walk = (at: string) => {
    for (const entry of readdirSync(at, {withFileTypes: true})) {
      const path = join(at, entry.name)
      if (entry.isDirectory()) walk(path)
      else hashes[relative(dir, path)] = createHash('sha256').update(readFileSync(path)).digest('hex')
    }
  }

  walk(dir)
  return hashes
}
