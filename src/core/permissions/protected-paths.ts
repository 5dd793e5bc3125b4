import {LOCAL_FILE, PROJECT_DIR, PROJECT_FILE} from '../config/locate.js'

/**
 * The files that configure hanzo-dev, and those git reads to decide what it runs, which the
 * agent's tools never write (the agent must not be able to grant itself permissions or make the
 * user's next `git status` run a program): deny rules of the writing tools that the policy
 * checks before anything else, so no allow rule of any tier and no permission mode
 * (`allow-all` included) overrides them. They hold for every write of a file (rule-target.ts):
 * a call of any tool that writes the path it names (`fs_write`, `fs_edit`, a plugin's edit tool),
 * and a command that writes one (a redirection, `tee`, `cp`, ...: command-analysis.ts).
 */

/**
 * The names under which rules speak of writing a file, as users write them (`"fs_write(.env)":
 * "deny"`) and the protected rules are written: every write of a file, whatever tool or command
 * makes it, is matched by them besides its own tool's name.
 */
export const WRITE_RULE_TOOLS: readonly string[] = ['fs_write', 'fs_edit']

export interface ProtectedRule {
  pattern: string
  mode: 'deny'
}

/**
 * The project and local settings files (config/locate.ts), in the workspace and in any
 * directory below it (a subdirectory can be a project of its own), and the directory holding
 * them, which a command could remove or replace whole (`rm -rf .hanzo`, `mv x .hanzo`). Named
 * exactly: a `*` in `settings*.json` would also run across `/`, and a write to
 * `$OUT/report.json` could then be one of them.
 */
/**
 * In a repository's git directory, what names programs git runs or where it reads its config:
 * the config (core.fsmonitor, core.hooksPath, include.path), a linked worktree's
 * config.worktree, commondir (the directory config and hooks come from) and the hooks, by name:
 * a `*` would run across `/` and make `> ~/.bashrc` one of them. Submodules' and worktrees' git
 * directories and what configs include are protected where they are found (protectedPathRules).
 */
const GIT_HOOKS = [
  'applypatch-msg',
  'commit-msg',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'p4-prepare-changelist',
  'post-applypatch',
  'post-checkout',
  'post-commit',
  'post-index-change',
  'post-merge',
  'post-receive',
  'post-rewrite',
  'post-update',
  'pre-applypatch',
  'pre-auto-gc',
  'pre-commit',
  'pre-merge-commit',
  'pre-push',
  'pre-rebase',
  'pre-receive',
  'prepare-commit-msg',
  'proc-receive',
  'push-to-checkout',
  'reference-transaction',
  'sendemail-validate',
  'update',
]
const GIT_INDIRECTION = [
  'config',
  'config.worktree',
  'commondir',
  'hooks',
  ...GIT_HOOKS.map((hook) => `hooks/${hook}`),
].map((file) => `.git/${file}`)

export const PROTECTED_PERMISSION_RULES: readonly ProtectedRule[] = denyWrites(
  [
    ...[PROJECT_FILE, LOCAL_FILE, ''].map((file) => (file ? `${PROJECT_DIR}/${file}` : PROJECT_DIR)),
    ...GIT_INDIRECTION,
  ].flatMap((path) => [path, `*/${path}`]),
)

/**
 * Deny rules for more places to protect, given as absolute canonical paths (the user settings,
 * the credentials file, the trust store; where the project's `.hanzo` and git's files really
 * are, and what git's config includes): each by its path relative to the workspace when the
 * workspace holds it (the workspace may be the home directory), which is what file tools are
 * matched by, and by its absolute path, which a command may write to (`> ~/.config/...`
 * is matched through its shape). A directory is protected with everything below it.
 */
export function protectedPathRules(paths: {
  workspaceRoot: string
  protectedFiles: readonly string[]
  protectedDirs?: readonly string[]
}): ProtectedRule[] {
  const root = slashes(paths.workspaceRoot).replace(/\/+$/, '')
  const forms = (path: string) => {
    const absolute = slashes(path)
    return absolute.startsWith(`${root}/`) ? [absolute.slice(root.length + 1), absolute] : [absolute]
  }

  return denyWrites([
    ...paths.protectedFiles.flatMap(forms),
    ...(paths.protectedDirs ?? []).flatMap(forms).flatMap((dir) => [dir, `${dir}/*`]),
  ])
}

function denyWrites(paths: readonly string[]): ProtectedRule[] {
  return WRITE_RULE_TOOLS.flatMap((tool) =>
    paths.map((path): ProtectedRule => ({mode: 'deny', pattern: `${tool}(${path})`})),
  )
}

/** Windows separators as rules spell them. */
function slashes(path: string): string {
  return path.replaceAll('\\', '/')
}
