import * as Flags from '@oclif/core/flags'

/** `--tools`, the same on every command that opens a session: it beats the `tools.enabled` setting. */
export const toolsFlag = Flags.string({
  description:
    'The tools the agent is offered, comma-separated: groups (fs, exec, web, git, lsp, mcp), names, globs (mcp__github__*), or all, none, read-only (default: the tools.enabled setting, else all).',
  helpValue: 'LIST',
})
