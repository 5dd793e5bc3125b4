import {opendir, stat} from 'node:fs/promises'

import {type ToolDefinition, toolOk} from '@hanzo-dev/sdk'

import {objectSchema, pathProperty} from './input-schema.js'
import {pathLocations, pathSubject} from './path-call.js'
import {failureResult, ToolFailure} from './tool-failure.js'
import {resolveToolPath} from './workspace-path.js'

export type FsListInput = {
  path?: string
}

/** Entries shown by one call; a larger directory is better searched with fs_glob. */
export const LIST_MAX_ENTRIES = 1000

export const fsList: ToolDefinition<FsListInput> = {
  name: 'fs_list',
  aliases: ['LS'],
  description: [
    'List one directory of the workspace (not recursive): its entries sorted by name, directories with a trailing `/`, symbolic links with a trailing `@`.',
    `The .git directory is left out. At most ${LIST_MAX_ENTRIES} entries are shown, with a count of the rest.`,
    'Use it to look around; to find files by name across the tree use fs_glob, to search contents use fs_grep.',
  ].join(' '),
  inputSchema: objectSchema({path: pathProperty('The directory to list', 'Defaults to the workspace root.')}),
  mutating: false,
  kind: 'read',
  subject: pathSubject,
  locations: pathLocations,
  async execute(input, context) {
    const path = input.path ?? '.'
    try {
      const target = await resolveToolPath(context.cwd, path, context.hiddenPaths)
      if (!(await stat(target.absolute)).isDirectory())
        throw new ToolFailure(`${target.relative} is a file, not a directory; use fs_read to read it`)
      let names: string[] = []
      let total = 0
      for await (const entry of await opendir(target.absolute)) {
        if (entry.name === '.git') continue
        total++
        names.push(entry.name + (entry.isDirectory() ? '/' : entry.isSymbolicLink() ? '@' : ''))
        // A directory can hold millions of entries: keep only the first names in sort order.
        if (names.length >= 2 * LIST_MAX_ENTRIES) names = names.sort().slice(0, LIST_MAX_ENTRIES)
      }

      if (total === 0) return toolOk(`${target.relative} is empty.`)
      names = names.sort().slice(0, LIST_MAX_ENTRIES)
      const rest = total - names.length
      return toolOk(
        names.join('\n') + (rest > 0 ? `\n… and ${rest} more entries (not shown; use fs_glob to narrow down)` : ''),
      )
    } catch (error) {
      return failureResult(error, path)
    }
  },
}
