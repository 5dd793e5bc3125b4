import {stat} from 'node:fs/promises'
import {join} from 'node:path'

import {type ToolDefinition, toolOk} from '@hanzo-dev/sdk'
import picomatch from 'picomatch'

import {comparePaths, FileWalk, WALK_MAX_ENTRIES, WALK_RULES} from './file-walk.js'
import {objectSchema, pathProperty} from './input-schema.js'
import {pathLocations, pathSubject} from './path-call.js'
import {fileNameGlob, listedPaths, ripgrep, runRipgrep, walkArguments} from './ripgrep.js'
import {compileGlob, relativeTo, resolveSearchDirectory, SEARCH_PATH_NOTE} from './search-scope.js'
import {failureResult, ToolFailure} from './tool-failure.js'
import {
  hiddenPlace,
  resolveInWorkspace,
  workspaceRelative,
  type WorkspacePath,
  workspaceRoot,
} from './workspace-path.js'

export type FsGlobInput = {
  pattern: string
  path?: string
}

/** Paths listed by one call; the rest are counted. */
export const GLOB_MAX_RESULTS = 1000

export const fsGlob: ToolDefinition<FsGlobInput> = {
  name: 'fs_glob',
  aliases: ['Glob'],
  description: [
    'Find files in the workspace by name with a glob pattern, matched against paths relative to the search directory: `**/*.ts` (any depth), `src/**/*.{ts,tsx}`, `*.md` (top level only), `test/**/fixtures/*`.',
    'Returns the matching file paths relative to the workspace root, sorted.',
    WALK_RULES,
    `At most ${GLOB_MAX_RESULTS} paths are listed, with a count of the rest. Use fs_grep to search file contents, fs_list to look at one directory.`,
  ].join(' '),
  inputSchema: objectSchema(
    {
      pattern: {
        type: 'string',
        minLength: 1,
        description:
          'The glob, relative to the search directory (no leading `/`, no `..`). `*` stays within one directory, `**` crosses directories, `{a,b}` is either. Directories named literally at its start (`dist/**/*.js`) are searched even when .gitignore ignores them.',
      },
      path: pathProperty('The directory to search', SEARCH_PATH_NOTE),
    },
    ['pattern'],
  ),
  mutating: false,
  kind: 'read',
  subject: pathSubject,
  describe: (input) => (input.path === undefined ? input.pattern : `${input.pattern} in ${input.path}`),
  locations: pathLocations,
  async execute(input, context) {
    try {
      const root = await workspaceRoot(context.cwd)
      const dir = await resolveSearchDirectory(root, input.path ?? '.', context.hiddenPaths)
      const scan = picomatch.scan(input.pattern)
      if (input.pattern.startsWith('/') || input.pattern.split('/').includes('..')) {
        throw new ToolFailure(
          'pattern must be relative to the search directory and stay inside it (no leading `/`, no `..`); use path to search somewhere else',
        )
      }

      const matches = compileGlob(input.pattern, {dot: true})
      const start = await narrowStart(root, dir, scan)
      const found: string[] = []
      let more = 0
      let truncated = false
      const keep = (relative: string) => {
        if (!matches(relativeTo(dir, relative))) return
        if (found.length < GLOB_MAX_RESULTS) found.push(relative)
        else more++
      }

      const listed =
        start === undefined ? [] : await listWithRipgrep(root, start, fileNameGlob(input.pattern), context.signal)
      if (listed) {
        for (const relative of listed.sort(comparePaths))
          if (hiddenPlace(join(root, relative), context.hiddenPaths) === undefined) keep(relative)
      } else if (start) {
        const walk = new FileWalk({hidden: context.hiddenPaths, root, signal: context.signal, start})
        for await (const file of walk.files()) keep(file.relative)
        truncated = walk.truncated
      }

      const lines = found.length === 0 ? [`No files match ${input.pattern} in ${dir.relative}.`] : found
      if (more > 0) lines.push(`… and ${more} more files (narrow the pattern or the path to see them)`)
      if (truncated)
        lines.push(
          `[The search stopped after ${WALK_MAX_ENTRIES} entries, so it is incomplete; search a narrower path.]`,
        )
      return toolOk(lines.join('\n'), {kind: 'read', matches: found.length + more})
    } catch (error) {
      return failureResult(error, input.path ?? '.')
    }
  },
}

/** The files under `start` (relative to the root) whose names may match `names`, listed by ripgrep; undefined without it (see ripgrep.ts). */
async function listWithRipgrep(
  root: string,
  start: string,
  names: string | undefined,
  signal: AbortSignal,
): Promise<string[] | undefined> {
  const rg = ripgrep()
  if (rg === undefined) return undefined
  const walk = await walkArguments(root, start, names)
  try {
    const output = await runRipgrep(
      rg,
      [...walk.args, '--files', '--null', '--', workspaceRelative(root, start)],
      root,
      signal,
    )
    return output && listedPaths(output)
  } finally {
    await walk.cleanup()
  }
}

/**
 * Where the walk can start: the pattern's literal leading directories (`src/app` of
 * `src/app/**\/*.ts`) spare walking the rest of the tree. Undefined when that directory does not
 * exist, so nothing can match; the search directory itself when the literal part goes through
 * a symbolic link (the walk does not follow those) or holds escapes.
 */
async function narrowStart(
  root: string,
  dir: WorkspacePath,
  scan: ReturnType<typeof picomatch.scan>,
): Promise<string | undefined> {
  if (!scan.isGlob || scan.base === '' || scan.base.includes('\\')) return dir.absolute
  const lexical = join(dir.absolute, scan.base)
  const base = await resolveInWorkspace(root, lexical)
  if (base.absolute !== lexical) return dir.absolute
  const info = await stat(base.absolute).catch(() => undefined)
  return info?.isDirectory() ? base.absolute : undefined
}
