import {type ToolDefinition, toolError, toolOk} from '@hanzo-dev/sdk'

/**
 * The read-only git tools the plugin contributes to agent sessions. Definitions only: what runs
 * git is imported on the first call, so a session that never calls them never loads it.
 */
export function gitTools(): ToolDefinition[] {
  return [
    {
      description:
        'The git status of the workspace: the branch, its upstream, and each changed, staged or untracked file (git status --short --branch). Read-only.',
      execute: (input, context) => run('status', input, context.cwd, context.signal),
      inputSchema: {additionalProperties: false, properties: {}, type: 'object'},
      kind: 'read',
      mutating: false,
      name: 'git_status',
    },
    {
      description:
        'The git diff of the workspace: staged and unstaged changes against HEAD, only the staged ones (staged: true), or against another commit (base). Starts with the list of changed files; binary and lock files are summarized and a large diff is cut. Read-only.',
      execute: (input, context) => run('diff', input, context.cwd, context.signal),
      inputSchema: {
        additionalProperties: false,
        properties: {
          base: {description: 'A commit, branch or tag to compare with (default HEAD).', type: 'string'},
          path: {
            description: 'Only this file or directory (a git pathspec, relative to the workspace).',
            type: 'string',
          },
          staged: {description: 'Only what is staged for the next commit.', type: 'boolean'},
        },
        type: 'object',
      },
      kind: 'read',
      mutating: false,
      name: 'git_diff',
    },
    {
      description: 'Recent commits, newest first: short hash, date, author and subject (git log). Read-only.',
      execute: (input, context) => run('log', input, context.cwd, context.signal),
      inputSchema: {
        additionalProperties: false,
        properties: {
          max_count: {
            description: 'How many commits (default 20, at most 200).',
            maximum: 200,
            minimum: 1,
            type: 'integer',
          },
          path: {description: 'Only commits that touch this file or directory.', type: 'string'},
          ref: {description: 'Start from this branch, tag or commit (default HEAD).', type: 'string'},
        },
        type: 'object',
      },
      kind: 'read',
      mutating: false,
      name: 'git_log',
    },
  ]
}

async function run(tool: 'status' | 'diff' | 'log', input: Record<string, unknown>, cwd: string, signal: AbortSignal) {
  const {runGitTool} = await import('./git-tool-runner.js')
  try {
    return toolOk(await runGitTool(tool, input, {cwd, env: process.env, signal}))
  } catch (error) {
    return toolError(error instanceof Error ? error.message : String(error))
  }
}
