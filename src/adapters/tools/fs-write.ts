import {mkdir, stat} from 'node:fs/promises'
import {dirname} from 'node:path'

import {type ToolDefinition, toolOk} from '@hanzo-dev/sdk'

import {writeFileAtomic} from '../atomic-write.js'
import {currentText, fileSnapshot} from './file-snapshot.js'
import {objectSchema, pathProperty} from './input-schema.js'
import {pathLocations, pathSubject} from './path-call.js'
import {failureResult, ToolFailure} from './tool-failure.js'
import {resolveToolPath} from './workspace-path.js'

export type FsWriteInput = {
  path: string
  content: string
}

export const fsWrite: ToolDefinition<FsWriteInput> = {
  name: 'fs_write',
  aliases: ['Write'],
  description: [
    'Write a whole file in the workspace: creates it (and any missing parent directories) or replaces all of its content.',
    'The write is atomic: a reader sees the old file or the new one, never a part.',
    'To change part of an existing file prefer fs_edit, which sends only the change; read a file with fs_read before replacing it.',
  ].join(' '),
  inputSchema: objectSchema(
    {
      path: pathProperty('The file to write'),
      content: {type: 'string', description: 'The complete new content of the file, written as UTF-8.'},
    },
    ['path', 'content'],
  ),
  mutating: true,
  kind: 'edit',
  subject: pathSubject,
  describe: (input) => input.path,
  locations: pathLocations,
  async preview(input, context) {
    return [{...(await fileSnapshot(context.cwd, input.path, context.hiddenPaths)), after: input.content}]
  },
  async execute(input, context) {
    try {
      const target = await resolveToolPath(context.cwd, input.path, context.hiddenPaths)
      const previous = await stat(target.absolute).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined
        throw error
      })
      if (previous?.isDirectory())
        throw new ToolFailure(`${target.relative} is a directory; give the path of a file inside it`)
      const before = previous ? await currentText(target) : null
      // The path is canonical, so the directories created are inside the workspace.
      await mkdir(dirname(target.absolute), {recursive: true})
      await writeFileAtomic(target.absolute, input.content)
      const bytes = Buffer.byteLength(input.content)
      return toolOk(
        previous
          ? `Replaced ${target.relative} (${bytes} bytes; it had ${previous.size} bytes).`
          : `Created ${target.relative} (${bytes} bytes).`,
        {files: [{after: input.content, before, path: target.relative}], kind: 'edit'},
      )
    } catch (error) {
      return failureResult(error, input.path)
    }
  },
}
