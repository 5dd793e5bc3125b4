/**
 * Environment variables set in front of a command that make it run something of someone's
 * choosing. `GIT_PAGER='rm -rf ~' git log` runs rm as surely as `git -c core.pager='rm -rf ~'
 * log` does (git-options.ts), so what such a variable holds must meet the deny rules:
 *
 * - `command`: the value is a command line the program runs (a pager, an editor, an ssh or
 *   askpass program): deny rules read it as shell code.
 * - `code`: the value makes the program load code or configuration no rule can read (a
 *   preloaded library, a shell startup file, interpreter options, another PATH, HOME or git
 *   config): it counts as matching every deny rule of exec (command-analysis.ts's
 *   `code-variable`).
 */
export function codeVariable(name: string): 'command' | 'code' | undefined {
  if (COMMAND_VARIABLES.has(name)) return 'command'
  return CODE_VARIABLE.test(name) ? 'code' : undefined
}

const COMMAND_VARIABLES = new Set([
  'BROWSER',
  'CVS_RSH',
  'EDITOR',
  'FCEDIT',
  'GIT_ASKPASS',
  'GIT_EDITOR',
  'GIT_EXTERNAL_DIFF',
  'GIT_PAGER',
  'GIT_PROXY_COMMAND',
  'GIT_SEQUENCE_EDITOR',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'LESSCLOSE',
  'LESSOPEN',
  'MANPAGER',
  'PAGER',
  'PROMPT_COMMAND',
  'RSYNC_CONNECT_PROG',
  'RSYNC_RSH',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'SVN_EDITOR',
  'SYSTEMD_PAGER',
  'VISUAL',
])

const CODE_VARIABLE = new RegExp(
  `^(?:${[
    'LD_\\w+',
    'DYLD_\\w+',
    'BASH_ENV',
    'ENV',
    'SHELLOPTS',
    'BASHOPTS',
    'PS4',
    'IFS',
    'PATH',
    'HOME',
    'ZDOTDIR',
    'XDG_CONFIG_HOME',
    'GCONV_PATH',
    'GIT_CONFIG\\w*',
    'GIT_DIR',
    'GIT_WORK_TREE',
    'GIT_EXEC_PATH',
    'GIT_TEMPLATE_DIR',
    'NODE_OPTIONS',
    'NODE_PATH',
    'PYTHONSTARTUP',
    'PYTHONPATH',
    'PYTHONHOME',
    'PERL5OPT',
    'PERL5LIB',
    'PERLLIB',
    'PERL5DB',
    'RUBYOPT',
    'RUBYLIB',
    'JAVA_TOOL_OPTIONS',
    '_JAVA_OPTIONS',
    'JDK_JAVA_OPTIONS',
    'npm_config_\\w+',
    'NPM_CONFIG_\\w+',
  ].join('|')})$`,
)
