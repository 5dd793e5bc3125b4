import {isInside} from '@hanzo-dev/sdk'
import type {MountPlan} from './mount-plan.js'

/**
 * bubblewrap arguments (without the binary) that run `argv` in `cwd` with / read-only, a fresh
 * /dev, /proc and /tmp, the plan's binds, its own pid, ipc and uts namespaces (and network unless
 * allowed), every capability dropped (as root bwrap keeps them otherwise, and CAP_SYS_ADMIN could
 * remount / read-write), a new session (no TIOCSTI into the user's terminal), and death with
 * its parent (a killed bwrap takes the whole pid namespace with it). The pid namespace and the
 * fresh /proc keep hanzo-dev's own process, and the environment it holds, out of sight.
 */
export function bwrapArgs(plan: MountPlan, argv: readonly string[], cwd: string): string[] {
  return [
    '--die-with-parent',
    '--new-session',
    '--unshare-all',
    ...(plan.network ? ['--share-net'] : []),
    '--cap-drop',
    'ALL',
    '--ro-bind',
    '/',
    '/',
    '--dev',
    '/dev',
    '--proc',
    '/proc',
    '--tmpfs',
    plan.tmp,
    ...binds(plan).flatMap(([access, path]) =>
      access === 'mask'
        ? ['--tmpfs', path, '--remount-ro', path]
        : [access === 'rw' ? '--bind' : '--ro-bind', path, path],
    ),
    '--chdir',
    cwd,
    '--',
    ...argv,
  ]
}

/**
 * The unshare(1) fallback: a mount and a pid namespace (and a user namespace when not root, where
 * it is what grants the right to mount; a network namespace when the network is off) in which
 * {@link UNSHARE_SCRIPT} makes every mount read-only, gives /tmp and /dev fresh tmpfs copies,
 * binds the plan, and drops every capability before it runs `argv`. `mounts` are the mount
 * points of the caller's namespace ({@link mountPoints}). The caller starts it detached: a new
 * session keeps the command off the user's terminal, as bwrap's --new-session does.
 */
export function unshareArgs(
  plan: MountPlan,
  mounts: readonly string[],
  argv: readonly string[],
  cwd: string,
  options: {userNamespace: boolean},
): string[] {
  // --kill-child: a killed unshare takes the pid namespace, and all that runs in it, along.
  const namespaces = [
    ...(options.userNamespace ? ['--user', '--map-root-user'] : []),
    '--mount',
    '--propagation',
    'private',
    '--pid',
    '--kill-child',
    ...(plan.network ? [] : ['--net']),
  ]
  // /dev is replaced whole, so its own mounts (pts, mqueue, hugepages) need not be made read-only first.
  const remount = mounts.filter((m) => !isInside('/dev', m))
  const bound = binds(plan).flat()
  return [
    ...namespaces,
    '--',
    '/bin/sh',
    '-c',
    UNSHARE_SCRIPT,
    'hanzo-sandbox',
    plan.tmp,
    ...remount,
    '--',
    ...bound,
    '--',
    cwd,
    ...argv,
  ]
}

type Access = 'ro' | 'rw' | 'mask'

function binds(plan: MountPlan): Array<[Access, string]> {
  const as = (access: Access) => (path: string) => [access, path] as [Access, string]
  return [
    ...plan.readOnlyRoots.map(as('ro')),
    ...plan.writable.map(as('rw')),
    ...plan.pinned.map(as('rw')),
    ...plan.protected.map(as('ro')),
    ...plan.masked.map(as('mask')),
  ]
}

/**
 * Arguments: TMP, the mount points to make read-only, `--`, pairs of `ro|rw|mask PATH` to bind
 * (a mask is an empty read-only tmpfs), `--`, the working directory and the command. A fresh
 * /proc shows only the pid namespace's processes. Fixed text: every path arrives as an
 * argument, never in the script. Binds whose source lies under /tmp reach the real one through a descriptor opened
 * before the tmpfs covers it (`mount --no-canonicalize` keeps /proc/self/fd/3 from being resolved
 * to the covered name). setpriv drops the capabilities the namespace gave, so the command cannot
 * undo the read-only remounts, and sets no_new_privs, so a setuid binary cannot give them back.
 * Until then the script holds those capabilities (as root: all of them), so the tools it runs
 * come from the system directories, never from a PATH entry the workspace may provide.
 */
export const UNSHARE_SCRIPT = `set -eu
userpath=\${PATH-}
PATH=/usr/sbin:/usr/bin:/sbin:/bin
setpriv=$(command -v setpriv)
tmp=$1; shift
exec 3<"$tmp" 4</dev
while [ "$1" != -- ]; do mount -o remount,bind,ro "$1"; shift; done; shift
mount -t tmpfs -o mode=1777,nosuid,nodev hanzo-tmp "$tmp"
mount -t tmpfs -o mode=755,nosuid hanzo-dev /dev
for n in null zero full random urandom tty; do : >"/dev/$n"; mount --no-canonicalize --bind "/proc/self/fd/4/$n" "/dev/$n"; done
for n in stdin:0 stdout:1 stderr:2; do ln -s "/proc/self/fd/\${n#*:}" "/dev/\${n%:*}"; done
ln -s /proc/self/fd /dev/fd
mkdir /dev/shm; mount -t tmpfs -o mode=1777,nosuid,nodev hanzo-shm /dev/shm
mount -t proc -o nosuid,nodev,noexec hanzo-proc /proc
while [ "$1" != -- ]; do
  if [ "$1" = mask ]; then mount -t tmpfs -o ro,nosuid,nodev,mode=700 hanzo-mask "$2"; shift 2; continue; fi
  src=$2
  case $src in "$tmp") src=/proc/self/fd/3;; "$tmp"/*) src=/proc/self/fd/3/\${src#"$tmp"/};; esac
  if [ ! -e "$2" ]; then if [ -d "$src" ]; then mkdir -p "$2"; else mkdir -p "\${2%/*}"; : >"$2"; fi; fi
  mount --no-canonicalize --rbind "$src" "$2"
  mount -o "remount,bind,$1" "$2"
  shift 2
done; shift
exec 3<&- 4<&-
cd "$1"; shift
PATH=$userpath
exec "$setpriv" --inh-caps=-all --bounding-set=-all --no-new-privs -- "$@"
`

/** The mount points of /proc/self/mountinfo (field 5), in mount order, octal escapes (`\\040`) decoded. */
export function mountPoints(mountinfo: string): string[] {
  return mountinfo
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) =>
      line
        .split(' ')[4]
        .replaceAll(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))),
    )
}
