import {describe, expect, it} from 'vitest'

import {analyzeCommandLine, type DenyForms, MAX_UNWRAP_DEPTH} from '../../../src/core/permissions/command-analysis.js'

/** What each part asks of allow rules: its words one space apart. */
const parts = (line: string) => analyzeCommandLine(line).parts.map((part) => part.allow.at(-1)!.text)
const hazards = (line: string) => analyzeCommandLine(line).hazards
const writes = (line: string) => analyzeCommandLine(line).writes.map((write) => write.target)

/** Every shape deny rules read for the parts, wrappers around them included. */
function denyShapes(line: string): string[] {
  const shapes: string[] = []
  for (const part of analyzeCommandLine(line).parts) {
    for (let forms: DenyForms | undefined = part.deny; forms; forms = forms.outer) shapes.push(...forms.shapes)
  }

  return shapes
}

describe('analyzeCommandLine: parts', () => {
  it('makes each simple command a part, substitutions first, reserved words dropped', () => {
    expect(parts('git status && git diff | head')).toEqual(['git status', 'git diff', 'head'])
    expect(parts('echo "$(git branch --show-current)"')).toEqual([
      'git branch --show-current',
      'echo $(git branch --show-current)',
    ])
    expect(parts('if ! grep -q x f; then make; fi')).toEqual(['grep -q x f', 'make'])
    expect(hazards('echo $(date)')).toEqual([])
  })

  it('keeps leading assignments in what allow rules see, and drops them for deny rules', () => {
    expect(parts('PAGER=less git log')).toEqual(['PAGER=less git log'])
    expect(denyShapes('PAGER=less git log')).toContain('git log')
  })

  it('says where each allow form names its program: assignments and the name, or the whole form when the name is quoted', () => {
    const forms = (line: string) => analyzeCommandLine(line).parts[0].allow
    expect(forms('git status')).toEqual([{head: 3, text: 'git status'}])
    expect(forms('ls=1 touch M')).toEqual([{head: 10, text: 'ls=1 touch M'}])
    expect(forms("git commit -m 'a b'")).toEqual([
      {head: 3, text: "git commit -m 'a b'"},
      {head: 3, text: 'git commit -m a b'},
    ])
    // One word with a space: its words form would read as `git` and `status/x`.
    expect(forms('"git status/x"')).toEqual([{head: 14, text: '"git status/x"'}])
    expect(forms("'ls' -la")).toEqual([
      {head: 8, text: "'ls' -la"},
      {head: 2, text: 'ls -la'},
    ])
  })

  it('lets deny rules read a path in the command position by its basename', () => {
    expect(parts('/tmp/evil/git status')).toEqual(['/tmp/evil/git status'])
    expect(denyShapes('/bin/rm -rf /')).toContain('rm -rf /')
    expect(denyShapes('/BIN/RM -rf /')).toContain('rm -rf /')
  })

  it('reports a command name only known when it runs, or one with non-ASCII characters', () => {
    for (const line of [
      '$X -rf /',
      '"$X" a',
      '/bin/r? x',
      '{rm,-rf,/}',
      'git${IFS}status',
      '~/bin/tool',
      '$(which rm) x',
      '`which rm` x',
    ]) {
      expect(hazards(line), line).toContain('dynamic-command')
    }

    expect(hazards('"*" x')).toEqual([])
    expect(hazards('g\u0456t status')).toEqual(['non-ascii-command'])
  })
})

describe('analyzeCommandLine: wrappers', () => {
  it('replaces a wrapper by the command after its options, and shows deny rules both', () => {
    const cases: Record<string, string> = {
      'builtin echo hi': 'echo hi',
      'command -p rm -rf /': 'rm -rf /',
      'env -i -u HOME A=1 rm -rf /': 'A=1 rm -rf /',
      'env - rm x': 'rm x',
      'exec -a name rm x': 'rm x',
      'ionice -c 3 -n7 rm x': 'rm x',
      'nice -n 10 rm x': 'rm x',
      'nice -10 rm x': 'rm x',
      'nohup rm x': 'rm x',
      'setsid -f rm x': 'rm x',
      'stdbuf -oL -e 0 rm x': 'rm x',
      'time -p rm x': 'rm x',
      'timeout -s KILL -k 5 10 rm x': 'rm x',
      'timeout --sig=KILL --preserve 10 rm x': 'rm x',
      'timeout 10 nice nohup rm x': 'rm x',
    }
    for (const [line, inner] of Object.entries(cases)) {
      expect(parts(line), line).toEqual([inner])
      expect(denyShapes(line), line).toEqual(expect.arrayContaining([inner.replace(/^A=1 /, ''), line]))
    }

    expect(denyShapes('timeout 10 rm x')).toEqual(['rm x', 'timeout 10 rm x'])
    expect(parts('Timeout 10 rm x')).toEqual(['Timeout 10 rm x'])
    expect(denyShapes('Timeout 10 rm x')).toEqual(['Timeout 10 rm x', 'timeout 10 rm x', 'rm x'])
  })

  it('replaces the wrappers that only change when, where on the machine or with what limits a command runs', () => {
    const cases: Record<string, string> = {
      'chrt -o 0 rm x': 'rm x',
      'chrt --sched-runtime 5 -d 0 rm x': 'rm x',
      'flock F rm x': 'rm x',
      'flock -n -w 5 F rm x': 'rm x',
      'ltrace -f rm x': 'rm x',
      'prlimit --nofile=64 rm x': 'rm x',
      'prlimit -n64 -o RESOURCE rm x': 'rm x',
      'strace -f -e trace=all -s 80 rm x': 'rm x',
      'taskset -c 0 rm x': 'rm x',
      'taskset 0x1 rm x': 'rm x',
      'watch -x -n 1 rm x': 'rm x',
    }
    for (const [line, inner] of Object.entries(cases)) {
      expect(parts(line), line).toEqual([inner])
      expect(denyShapes(line), line).toEqual(expect.arrayContaining([inner, line]))
    }
  })

  it('makes a wrapper that changes who runs the command, its root or what runs a part of its own', () => {
    const cases: Record<string, string> = {
      'busybox rm x': 'rm x',
      'chroot --userspec=1:1 / rm x': 'rm x',
      'npx -y rm x': 'rm x',
      'npm exec -- rm x': 'rm x',
      'nsenter -t 1 -m rm x': 'rm x',
      'runuser -u nobody -- rm x': 'rm x',
      'setpriv --reuid=1000 --clear-groups rm x': 'rm x',
      'systemd-run --user -p CPUQuota=10% rm x': 'rm x',
      'unshare -r -n rm x': 'rm x',
    }
    for (const [line, inner] of Object.entries(cases)) expect(parts(line), line).toEqual([line, inner])
  })

  it('reads the shell code of flock -c, su -c, runuser -c, script -c, npx -c and watch', () => {
    expect(parts("flock F -c 'a; b'")).toEqual(['a', 'b'])
    expect(parts("su - root -c 'a; b'")).toEqual(['su - root -c a; b', 'a', 'b'])
    expect(parts("runuser -l root -c 'a'")).toEqual(['runuser -l root -c a', 'a'])
    expect(parts("script -qc 'a; b' /dev/null")).toEqual(['a', 'b'])
    expect(parts("script out.log -c 'a'")).toEqual(['script out.log -c a', 'a'])
    expect(parts("npx -c 'a && b'")).toEqual(['npx -c a && b', 'a', 'b'])
    expect(parts('watch -n 2 a b')).toEqual(['a b'])
    expect(hazards('flock F -c a b')).toContain('unparsable')
  })

  it('makes a wrapper a part of its own when it changes the directory or writes a file', () => {
    expect(parts('env -C /tmp/evil npm test')).toEqual(['env -C /tmp/evil npm test', 'npm test'])
    expect(parts('time -o ~/.bashrc git status')).toEqual(['time -o ~/.bashrc git status', 'git status'])
  })

  it('splits env -S into words', () => {
    expect(parts("env -S 'rm -rf /' x")).toEqual(['rm -rf / x'])
    expect(hazards("env -S 'a; b'")).toContain('unparsable')
  })

  it('makes a wrapper with nothing to run a command of its own', () => {
    for (const line of [
      'env',
      'command -v git',
      'ionice -p 42',
      'sudo -l',
      'sudo -v',
      'nice',
      'exec -l',
      'doas -L',
      'taskset -p 42',
      'chrt -m',
      'prlimit -p 42',
      'flock 9',
      'busybox --list',
      'setpriv -d',
    ]) {
      expect(parts(line), line).toEqual([line])
    }
  })

  it('makes sudo and doas a part of their own besides the command', () => {
    expect(parts('sudo -u root -E -- npm test')).toEqual(['sudo -u root -E -- npm test', 'npm test'])
    expect(parts('sudo -nu root VAR=1 npm test')).toEqual(['sudo -nu root VAR=1 npm test', 'VAR=1 npm test'])
    expect(parts('doas -u root rm x')).toEqual(['doas -u root rm x', 'rm x'])
  })

  it('reads sudo -e and sudoedit as writes', () => {
    expect(writes('sudo -e /etc/hosts')).toEqual(['/etc/hosts'])
    expect(writes('sudoedit -u root a b')).toEqual(['root', 'a', 'b'])
  })

  it("gives xargs's command a last word for the arguments it reads, unless -I places them", () => {
    expect(parts('xargs -0 -n 1 rm -f')).toEqual(['rm -f *'])
    expect(parts('xargs')).toEqual(['echo *'])
    expect(parts('xargs -I{} mv {} dst')).toEqual(['mv {} dst'])
    expect(parts('xargs -i mv {} dst')).toEqual(['mv {} dst'])
    expect(parts('xargs --replace=X mv X dst')).toEqual(['mv X dst'])
  })

  it('reads the script of sh -c and bash -c, options and all', () => {
    expect(parts("bash -c 'git status; rm -rf ~'")).toEqual(['git status', 'rm -rf ~'])
    expect(parts("sh -ec 'a && b'")).toEqual(['a', 'b'])
    expect(parts("bash --norc -o pipefail -c 'a | b' name arg")).toEqual(['a', 'b'])
    expect(parts("zsh -c -x 'a'")).toEqual(['a'])
    expect(parts('bash script.sh')).toEqual(['bash script.sh'])
    expect(parts('bash -c')).toEqual(['bash -c'])
  })

  it('cannot read shell code the outer shell expands first', () => {
    expect(hazards('bash -c "$X"')).toContain('unparsable')
    expect(hazards('bash -c "echo $X"')).toContain('unparsable')
    expect(hazards("bash -c 'echo $X'")).toEqual([])
  })

  it('reads eval, trap and alias as shell code', () => {
    expect(parts("eval 'a;' b")).toEqual(['a', 'b'])
    expect(parts("trap 'rm -rf ~' EXIT")).toEqual(['trap rm -rf ~ EXIT', 'rm -rf ~'])
    expect(parts('trap -p')).toEqual(['trap -p'])
    expect(parts("alias ll='ls -l' la='ls -a'")).toEqual(['alias ll=ls -l la=ls -a', 'ls -l', 'ls -a'])
  })

  it('reads the commands of find -exec, -execdir, -ok and -okdir, and the files -fprint writes', () => {
    expect(parts('find . -name x -exec rm {} + -execdir sh -c "b" \\; -ok c \\;')).toEqual([
      'find . -name x -exec rm {} + -execdir sh -c b ; -ok c ;',
      'rm {}',
      'b',
      'c',
    ])
    expect(hazards('find . -exec rm {}')).toContain('unparsable')
    expect(writes('find . -fprint out.txt')).toEqual(['out.txt'])
  })

  it('cannot tell where a command starts after an option it does not know, in the new wrappers too', () => {
    for (const line of [
      'flock --bogus F rm x',
      'strace --frobnicate rm x',
      'taskset -z 0 rm x',
      'su --bogus -c x',
      'script --bogus -c x',
    ]) {
      expect(hazards(line), line).toContain('unparsable')
    }
  })

  it('cannot tell where a command starts after an option it does not know', () => {
    expect(hazards('timeout --bogus 5 rm x')).toContain('unparsable')
    expect(hazards('nice -z rm x')).toContain('unparsable')
  })

  it('unwraps for allow rules only what is named bare and without assignments, and looks inside for deny rules', () => {
    expect(parts('/usr/bin/timeout 5 git status')).toEqual(['/usr/bin/timeout 5 git status'])
    expect(denyShapes('/usr/bin/env rm -rf /')).toContain('rm -rf /')
    expect(parts('PAGER=x timeout 5 git log')).toEqual(['PAGER=x timeout 5 git log'])
    expect(denyShapes("PAGER=x bash -c 'rm -rf ~'")).toContain('rm -rf *')
  })

  it(`stops after ${MAX_UNWRAP_DEPTH} levels, and cannot read what is deeper`, () => {
    const deep = `${'timeout 1 '.repeat(MAX_UNWRAP_DEPTH + 1)}rm x`
    expect(hazards(deep)).toContain('unparsable')
    expect(hazards(`${'timeout 1 '.repeat(MAX_UNWRAP_DEPTH)}rm x`)).toEqual([])
  })

  it('stays linear on long chains of wrappers and long scripts', () => {
    expect(hazards(`${'eval '.repeat(50_000)}rm x`)).toContain('unparsable')
    expect(parts(`bash -c '${'a;'.repeat(50_000)}'`)).toHaveLength(50_000)
  })

  it('shares the wrapper around many parts instead of copying it', () => {
    const [first, second] = analyzeCommandLine("bash -c 'a; b'").parts
    expect(first.deny.outer).toBeDefined()
    expect(first.deny.outer).toBe(second.deny.outer)
  })
})

describe('analyzeCommandLine: git', () => {
  it('reports options that make git run a command, and reads their values as shell code', () => {
    const cases: Record<string, string[]> = {
      'git --config-env=core.pager=PAGER log': [],
      'git --exec-path=/tmp/x status': [],
      "git -c alias.x='!rm -rf ~' x": ['rm -rf ~'],
      "git -c core.pager='less -R' log": ['less -R'],
      "git clone -u 'touch x' url": ['touch x'],
      "git clone --config core.sshCommand='ssh -i k' url": ['ssh -i k'],
      "git difftool -x 'vimdiff'": ['vimdiff'],
      "git fetch --upload-pack='rm -rf ~' origin": ['rm -rf ~'],
      'git grep -Oless x': ['less'],
      'git push --receive-pack=evil': ['evil'],
      "git rebase -x 'make test' main": ['make test'],
      "git rebase --exec='make test' main": ['make test'],
      "git submodule --quiet foreach --recursive 'git clean -fdx'": ['git clean -fdx'],
      'git config core.pager evil': [],
      'git filter-branch --tree-filter x': [],
    }
    for (const [line, inner] of Object.entries(cases)) {
      const analysis = analyzeCommandLine(line)
      expect(analysis.hazards, line).toContain('executing-option')
      expect(
        analysis.parts.slice(1).map((part) => part.allow.at(-1)!.text),
        line,
      ).toEqual(inner)
    }
  })

  it("reports options that point git at another repository's config", () => {
    for (const line of [
      'git -C evil.git status',
      'git --git-dir=evil.git log',
      'git --work-tree x --git-dir y status',
    ]) {
      expect(hazards(line), line).toEqual(['executing-option'])
    }
  })

  it('leaves git alone when it only reads', () => {
    for (const line of [
      'git --no-pager log',
      'git --exec-path',
      'git config --get user.name',
      'git config -l',
      'git commit -m "-x y"',
      'git status',
    ]) {
      expect(hazards(line), line).toEqual([])
    }
  })

  it('makes git bisect run a command of its own', () => {
    expect(parts('git bisect run make test')).toEqual(['git bisect run make test', 'make test'])
  })
})

describe('analyzeCommandLine: writes', () => {
  it('lists redirections to files, not descriptor duplications or /dev/null', () => {
    expect(writes('a > out 2>&1 >> log 2>/dev/null < in')).toEqual(['out', 'log'])
  })

  it('lists the files common tools write because their arguments name them', () => {
    expect(writes('tee -a x y')).toEqual(['x', 'y'])
    expect(writes('rm -rf -- -x y')).toEqual(['-x', 'y'])
    expect(writes('touch a; truncate -s 0 b; shred c; unlink d')).toEqual(['a', '0', 'b', 'c', 'd'])
    expect(writes("sed -i 's/a/b/' f")).toEqual(['s/a/b/', 'f'])
    expect(writes("sed 's/a/b/' f")).toEqual([])
    expect(writes("perl -pi -e 's/a/b/' f")).toEqual(['s/a/b/', 'f'])
    expect(writes('cp a b dir')).toEqual(['dir', 'dir/a', 'dir/b'])
    expect(writes('cp -t dir a')).toEqual(['dir', 'dir/a'])
    expect(writes('install --target-directory=dir a')).toEqual(['dir', 'dir/a'])
    expect(writes('ln -sf ../x link')).toEqual(['link', 'link/x', '../x'])
    expect(writes('cp -al a b')).toEqual(['b', 'b/a', 'a'])
    expect(writes('mv a b')).toEqual(['b', 'b/a', 'a'])
    expect(writes('dd if=a of=b')).toEqual(['b'])
    expect(writes('time -o t.txt make')).toEqual(['t.txt'])
    expect(writes('git diff --output=d.patch')).toEqual(['d.patch'])
    expect(writes('sort -o a b; sort -uoc d; sort --output=e f; sort --out g h; sort -k 1o i')).toEqual([
      'a',
      'c',
      'e',
      'g',
    ])
    expect(writes('strace -o t.txt ls; strace -o "|cat" ls; ltrace --output=l.txt ls')).toEqual(['t.txt', 'l.txt'])
    expect(writes("script -qc 'ls'; script -qc ls log; script -c ls /dev/null; script -B io.log -c ls")).toEqual([
      'typescript',
      'log',
      'io.log',
    ])
  })

  it("reads a recursive copy of a directory's contents as writing anything in the destination", () => {
    expect(writes('cp -r dir/. .')).toEqual(['.', './.', './*'])
    expect(writes('cp -rT dir out')).toEqual(['out', 'out/dir', 'out/*'])
    expect(writes('cp -r dir out')).toEqual(['out', 'out/dir'])
    expect(writes('cp dir/. out')).toEqual(['out', 'out/.'])
  })

  it('reads the pathspecs of git checkout and git restore as writes, with git its own wildcards', () => {
    expect(writes('git checkout -- secret.txt')).toEqual(['secret.txt'])
    expect(writes('git -C . checkout main -- a b')).toEqual(['main', 'a', 'b'])
    expect(writes('git restore --staged -- .')).toEqual(['.', './*'])
    const shapes = (line: string) => analyzeCommandLine(line).writes.map((write) => write.shape)
    expect(shapes("git checkout -- '*.txt' 'a?' '[ab]c' ':/x' ':(top)'")).toEqual(['*.txt', 'a?', '?c', '*x', './*'])
    expect(writes('git status; git log a')).toEqual([])
  })

  it('reads git config as a write of the config file its scope names, and a read as none', () => {
    expect(writes('git config core.hooksPath h; git config --unset core.fsmonitor; git config -e')).toEqual([
      '.git/config',
      '.git/config',
      '.git/config',
    ])
    expect(writes('git config --global alias.x "!sh"; git config --system a.b c; git config --worktree a.b c')).toEqual(
      ['~/.gitconfig', '/etc/gitconfig', '.git/config.worktree'],
    )
    expect(
      writes(
        'git config --file=x.cfg a.b c; git config -f y.cfg a.b c; git --git-dir=/r/.git config a.b c; git -C a -C b config a.b c',
      ),
    ).toEqual(['x.cfg', 'y.cfg', '/r/.git/config', 'a/b/.git/config'])
    expect(
      writes(
        'git config user.name; git config --get a.b; git config --list --show-origin; git config get a.b; git config --global --type=bool a.b',
      ),
    ).toEqual([])
    expect(writes('git -c core.hooksPath=h commit; git -c color.ui=never status; git -c INCLUDE.PATH=x log')).toEqual([
      '.git/config (git -c core.hooksPath names what git runs)',
      '.git/config (git -c INCLUDE.PATH names what git runs)',
    ])
    expect(analyzeCommandLine('git config --global a.b c').writes[0].shape).toBe('*/.gitconfig')
  })

  it('places relative writes in the directory a cd moved to', () => {
    expect(writes('cd .hanzo; echo x > settings.json')).toEqual(['.hanzo/settings.json'])
    expect(writes('cd a && cd ../b && tee c ~/d /e')).toEqual(['a/../b/c', '~/d', '/e'])
    expect(analyzeCommandLine('cd a && cd ../b && tee c').writes[0].shape).toBe('a/../b/c')
    expect(writes('cd -P /tmp; echo > x; cd; echo > y; pushd z; popd; echo > w')).toEqual([
      '/tmp/x',
      '(another directory)/y',
      '(another directory)/w',
    ])
  })

  it('finds writes inside wrappers and scripts', () => {
    expect(writes("sudo tee /etc/hosts; bash -c 'echo x > y'")).toEqual(['/etc/hosts', 'y'])
  })
})
