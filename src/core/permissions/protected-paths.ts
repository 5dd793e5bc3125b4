import {LOCAL_FILE, PROJECT_DIR, PROJECT_FILE} from '../config/locate.js'

/**
 * The files that configure hanzo-dev, which its tools never write (the agent must not be able
 * to grant itself permissions or change what runs): deny rules of the writing tools that the
 * policy checks before anything else, so no allow rule of any tier and no permission mode
 * (`allow-all` included) overrides them. An exec command that writes one (a redirection,
 * `tee`, `cp`, ...: command-analysis.ts) meets the same rules.
 */

/** The built-in tools that write files; exec's writes are judged by their deny rules. */
export const WRITING_TOOLS: readonly string[] = ['fs_write', 'fs_edit']

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
export const PROTECTED_PERMISSION_RULES: readonly ProtectedRule[] = denyWrites(
  [PROJECT_FILE, LOCAL_FILE, ''].flatMap((file) => {
    const path = file ? `${PROJECT_DIR}/${file}` : PROJECT_DIR
    return [path, `*/${path}`]
  }),
)

/**
 * Deny rules for more files to protect, given as absolute canonical paths (the user settings,
 * the credentials file, the trust store): each by its path relative to the workspace when the
 * workspace holds it (the workspace may be the home directory), which is what file tools are
 * matched by, and by its absolute path, which a command may write to (`> ~/.config/...`
 * is matched through its shape).
 */
export function protectedPathRules(paths: {workspaceRoot: string; protectedFiles: readonly string[]}): ProtectedRule[] {
  const root = slashes(paths.workspaceRoot).replace(/\/+$/, '')
  return denyWrites(
    paths.protectedFiles.flatMap((file) => {
      const absolute = slashes(file)
      return absolute.startsWith(`${root}/`) ? [absolute.slice(root.length + 1), absolute] : [absolute]
    }),
  )
}

function denyWrites(paths: readonly string[]): ProtectedRule[] {
  return WRITING_TOOLS.flatMap((tool) => paths.map((path): ProtectedRule => ({mode: 'deny', pattern: `${tool}(${path})`})))
}

/** Windows separators as rules spell them. */
function slashes(path: string): string {
  return path.replaceAll('\\', '/')
}
