import {describe, expect, it} from 'vitest'

import {commandPrefix} from '../../../src/core/permissions/index.js'

const prefix = (line: string) => {
  const chosen = commandPrefix(line)
  return 'prefix' in chosen ? chosen.prefix : undefined
}

describe('commandPrefix: what "allow for this session" widens a command to', () => {
  it.each([
    ['ls -la', 'ls'],
    ['ls', 'ls'],
    ['cat README.md', 'cat'],
    ['grep -rn "TODO: fix" src', 'grep'],
    ['git diff', 'git diff'],
    ['git diff --stat HEAD~1', 'git diff'],
    ['git log --oneline -5', 'git log'],
    ['npm test', 'npm test'],
    ['npm test -- --watch', 'npm test'],
    ['npm run build', 'npm run build'],
    ['npm run build -- --mode=dev', 'npm run build'],
    ['npm run', 'npm run'],
    ['pnpm run lint', 'pnpm run lint'],
    ['pnpm build', 'pnpm build'],
    ['yarn run test --coverage', 'yarn run test'],
    ['cargo build --release', 'cargo build'],
    ['cargo test', 'cargo test'],
    ['go test ./...', 'go test'],
    ['go vet ./...', 'go vet'],
    ['make all', 'make all'],
    ['make test V=', undefined],
    ['gh pr list', 'gh pr'],
    ['pip list', 'pip list'],
    ['echo "hello world"', 'echo'],
    ["ls 'file with * in it'", 'ls'],
  ])('%s -> %s *', (line, expected) => {
    expect(prefix(line)).toBe(expected)
  })

  it.each([
    // More than one command, a redirection, something before the program.
    'ls -la | grep x',
    'ls && rm -rf ~',
    'ls; rm x',
    'ls > out.txt',
    'ls 2>/dev/null',
    'ls < input',
    '(ls)',
    'ls $(pwd)',
    'ls `pwd`',
    'ls <(echo x)',
    'FOO=1 ls',
    'LD_PRELOAD=/tmp/x.so ls',
    '! ls',
    'time ls',
    'cat <<EOF\nx\nEOF',
    // What the scanner cannot resolve: expansions, globs, braces, unterminated quotes, hidden characters.
    'ls $HOME',
    'ls *.ts',
    'ls {a,b}',
    'ls ~',
    '$CMD -la',
    "ls 'unterminated",
    'ls "$(',
    'ls\rrm -rf ~',
    'ls \u202Egnp.exe',
    'gіt status',
    // Interpreters and commands that run code named in their arguments.
    'bash script.sh',
    'sh -c "ls"',
    'zsh x',
    'python script.py',
    'python3 -m pytest',
    'python3.12 x.py',
    'node index.js',
    'node -e "1"',
    'deno run x.ts',
    'bun x.ts',
    'perl x.pl',
    'ruby x.rb',
    'awk "{print}" file',
    'sed -n 1p file',
    'env FOO=1 ls',
    'env',
    'sudo ls',
    'xargs ls',
    'find . -name x',
    'find . -exec rm {} ;',
    'timeout 5 ls',
    'nice ls',
    'eval ls',
    'source x.sh',
    '. x.sh',
    'ssh host ls',
    'docker run alpine',
    'npx prettier .',
    'npm exec prettier',
    'npm x prettier',
    'npm install left-pad',
    'npm i left-pad',
    'npm init react-app x',
    'pnpm dlx create-x',
    'yarn dlx x',
    'go run main.go',
    'cargo install ripgrep',
    'uv run x.py',
    'pip install requests',
    'gh api repos/x/y -X DELETE',
    'git config core.pager less',
    'make -f /tmp/evil.mk',
    'make',
    'git',
    'npm',
    // Options before the subcommand decide what follows.
    'git -C /tmp/evil.git status',
    'git -c core.pager=sh log',
    'git --no-pager diff',
    'npm --prefix /tmp/x test',
    'make -j4 all',
    'npm run --silent build',
    // A path names a file of its own; a program name a rule cannot spell.
    './gradlew build',
    '/bin/ls',
    '"l s" x',
    'ls* x',
    // Destroys whatever it is given.
    'rm x',
    'rm -rf build',
    'dd if=/dev/zero of=x',
    'chmod +x run.sh',
    'kill 1234',
    'mkfs.ext4 /dev/sda1',
    // A secret the rule would spell out.
    'npm run sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789',
  ])('%j: only the exact command', (line) => {
    const chosen = commandPrefix(line)
    expect(chosen).toEqual({exact: expect.any(String)})
  })

  it('says why a command is not widened', () => {
    expect(commandPrefix('python x.py')).toEqual({exact: 'it runs code named in its arguments'})
    expect(commandPrefix('rm x')).toEqual({exact: expect.stringContaining('destroys')})
    expect(commandPrefix('ls | wc -l')).toEqual({exact: expect.stringContaining('more than one command')})
    expect(commandPrefix('go run .')).toEqual({exact: 'go run runs code named in the words after it'})
    expect(commandPrefix('git --no-pager diff')).toEqual({exact: 'git is given no subcommand before its options'})
    expect(commandPrefix('git -C x status')).toEqual({exact: expect.stringContaining('no rule can read')})
  })
})
