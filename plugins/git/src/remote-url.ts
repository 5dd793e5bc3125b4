/**
 * Where a browser opens a pull request for `branch` into `base`, from the remote's URL
 * (`git@host:owner/repo.git`, `ssh://git@host:22/owner/repo.git`, `https://user:token@host/owner/repo`):
 * GitHub's compare page, GitLab's new merge request page. The user info is never part of it.
 * Undefined for a remote that is a path or an unknown shape.
 */
export function compareUrl(remote: string, base: string, branch: string): string | undefined {
  const web = webRepository(remote)
  if (!web) return undefined
  const ref = (name: string) => name.split('/').map(encodeURIComponent).join('/')
  if (/(^|\.)gitlab\./.test(web.host)) {
    const query = `merge_request%5Bsource_branch%5D=${encodeURIComponent(branch)}&merge_request%5Btarget_branch%5D=${encodeURIComponent(base)}`
    return `https://${web.host}/${web.path}/-/merge_requests/new?${query}`
  }

  return `https://${web.host}/${web.path}/compare/${ref(base)}...${ref(branch)}?expand=1`
}

/** The web host and `owner/repo` path a remote URL names. */
export function webRepository(remote: string): {host: string; path: string} | undefined {
  const url = remote.trim()
  let host: string
  let path: string
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(url)
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return undefined
    }

    if (!['http:', 'https:', 'ssh:', 'git:'].includes(parsed.protocol) || !parsed.hostname) return undefined
    host = parsed.protocol.startsWith('http') ? parsed.host : parsed.hostname
    path = decodeURIComponent(parsed.pathname)
  } else if (scp) {
    host = scp[1]
    path = scp[2]
  } else {
    return undefined
  }

  path = path.replace(/^\/+|\/+$/g, '').replace(/\.git$/, '')
  if (!/^[^/]+\/[^/]+/.test(path)) return undefined
  return {host: host.toLowerCase(), path}
}

/** A remote URL fit to show: user info (a token, often) taken out. */
export function redactRemote(remote: string): string {
  return remote.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1')
}
