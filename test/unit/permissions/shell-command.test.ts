import {describe, expect, it} from 'vitest'

import {commandWords, parseShellCommand} from '../../../src/core/permissions/index.js'

const texts = (line: string) => parseShellCommand(line).commands.map((command) => command.text)
const hazards = (line: string) => parseShellCommand(line).hazards

describe('parseShellCommand', () => {
  it('cuts at ; && || | & and newlines', () => {
    expect(texts('a 1; b 2 && c || d | e & f\ng')).toEqual(['a 1', 'b 2', 'c', 'd', 'e', 'f', 'g'])
    expect(hazards('a; b && c')).toEqual([])
  })

  it('leaves out empty commands', () => {
    expect(texts(';; a ;\n\n')).toEqual(['a'])
    expect(texts('')).toEqual([])
  })

  it('reads separators inside quotes and after a backslash as text', () => {
    const {commands, hazards} = parseShellCommand(`echo "a;b" 'c && d' e\\;f`)
    expect(commands).toEqual([{text: `echo "a;b" 'c && d' e\\;f`, words: ['echo', 'a;b', 'c && d', 'e;f']}])
    expect(hazards).toEqual([])
  })

  it('removes quotes into words, keeping empty words', () => {
    expect(parseShellCommand(`'git'  "sta"tus '' "a \\" \\$ \\x"`).commands[0].words).toEqual(['git', 'status', '', 'a " $ \\x'])
  })

  it('joins backslash-newline continuations', () => {
    expect(parseShellCommand('git status \\\n  --short').commands[0].words).toEqual(['git', 'status', '--short'])
  })

  it('treats subshell parentheses as separators', () => {
    expect(texts('(cd a && make) || true')).toEqual(['cd a', 'make', 'true'])
  })

  it('skips comments, which may hold unbalanced quotes', () => {
    expect(texts("git status # it's\nrm -rf ~")).toEqual(["git status # it's", 'rm -rf ~'])
    expect(parseShellCommand("git status # it's").commands[0].words).toEqual(['git', 'status'])
    expect(parseShellCommand('echo a#b $#').commands[0].words).toEqual(['echo', 'a#b', '$#'])
  })

  it('reports substitutions, and still finds the commands inside them', () => {
    for (const line of ['echo $(id)', 'echo "$(id)"', 'echo `id`', 'echo "`id`"', 'diff <(ls a) b', 'tee >(gzip) < x', 'echo $((1 + 2))']) {
      expect(hazards(line), line).toEqual(['substitution'])
    }

    expect(parseShellCommand('echo "x $(rm -rf ~; ls) y" z').commands).toEqual([
      {text: 'rm -rf ~', words: ['rm', '-rf', '~']},
      {text: 'ls', words: ['ls']},
      {text: 'echo "x $(rm -rf ~; ls) y" z', words: ['echo', 'x $(rm -rf ~; ls) y', 'z']},
    ])
  })

  it('reads $(...) nested parentheses and a backtick inside $(...)', () => {
    expect(texts('a $( (b) ; `c` ) d')).toEqual(['b', 'c', '`c`', 'a $( (b) ; `c` ) d'])
  })

  it('does not see substitutions inside single quotes', () => {
    expect(parseShellCommand("echo '$(id) `id`'")).toEqual({commands: [{text: "echo '$(id) `id`'", words: ['echo', '$(id) `id`']}], hazards: []})
  })

  it('reads a plain ${...} as part of a word, separators and spaces included', () => {
    expect(parseShellCommand('echo ${HOME}/x ${y:-a b; c}')).toEqual({commands: [{text: 'echo ${HOME}/x ${y:-a b; c}', words: ['echo', '${HOME}/x', '${y:-a b; c}']}], hazards: []})
  })

  it('reports a ${...} holding quotes or expansions, where shells disagree', () => {
    expect(hazards(`echo "\${x:-'}'}"`)).toEqual(['substitution'])
    expect(hazards('echo ${x:-$y}')).toEqual(['substitution'])
    expect(hazards('echo ${x')).toEqual(['unparsable'])
  })

  it('reports redirections to files but not descriptor duplications or /dev/null', () => {
    for (const line of ['ls > out', 'ls >>out', 'ls 2>err', 'ls &> all', 'ls &>>all', 'ls >| out', 'ls >&out', 'exec 3<> file']) {
      expect(hazards(line), line).toEqual(['file-redirection'])
    }

    for (const line of ['npm test 2>&1', 'ls >&2', 'ls 2>&-', 'ls > /dev/null 2>&1', 'sort < in.txt', 'cat <<< "text"', 'cat 0<&3']) {
      expect(hazards(line), line).toEqual([])
    }
  })

  it('keeps a redirection as one word with its descriptor and target', () => {
    expect(parseShellCommand('npm test 2>&1 > "/dev/null"').commands[0].words).toEqual(['npm', 'test', '2>&1', '>/dev/null'])
    expect(parseShellCommand('echo 2 >&2').commands[0].words).toEqual(['echo', '2', '>&2'])
  })

  it('does not take the & of a redirection for a separator', () => {
    expect(texts('make 2>&1 &>/dev/null')).toEqual(['make 2>&1 &>/dev/null'])
  })

  it('reports here-documents', () => {
    expect(hazards('cat <<EOF\nhi\nEOF')).toEqual(['heredoc'])
    expect(hazards('cat <<-EOF\nhi\nEOF')).toEqual(['heredoc'])
  })

  it('reports what is unterminated or read differently by bash and dash', () => {
    for (const line of ['echo "oops', "echo 'oops", 'echo $(id', 'echo `id', 'echo >', 'echo > ; ls', "echo $'a\\'b'", "echo $'open", 'ls > > x']) {
      expect(hazards(line), line).toContain('unparsable')
    }

    expect(parseShellCommand("echo $'a\\tb' \"$'x'\"")).toEqual({commands: [{text: "echo $'a\\tb' \"$'x'\"", words: ['echo', 'a\\tb', "$'x'"]}], hazards: []})
  })

  it('stays linear on deep nesting and unclosed braces (a quadratic parse of a long line would time out)', () => {
    const deep = parseShellCommand(`${'$('.repeat(100_000)}rm -rf ~${')'.repeat(100_000)}`)
    expect(deep.hazards).toEqual(['substitution', 'unparsable'])
    expect(deep.commands.some((command) => command.text.startsWith('$($(') && command.text.includes('rm -rf ~'))).toBe(true)
    expect(parseShellCommand('${'.repeat(200_000)).hazards).toEqual(['substitution', 'unparsable'])
    expect(parseShellCommand(`\${${'a'.repeat(200_000)}`.repeat(3)).hazards).toEqual(['substitution', 'unparsable'])
  })

  it('cuts where bash cuts after an escaped quote in $\'...\'', () => {
    expect(texts("echo $'\\'' ; rm -rf ~")).toEqual(["echo $'\\''", 'rm -rf ~'])
  })
})

describe('commandWords', () => {
  it('drops leading assignments and reserved words', () => {
    const words = (line: string) => parseShellCommand(line).commands.map((command) => commandWords(command).join(' '))
    expect(words('A=1 B+=2 rm -rf /')).toEqual(['rm -rf /'])
    expect(words('if true; then rm -rf /; fi')).toEqual(['true', 'rm -rf /', ''])
    expect(words('! time rm x')).toEqual(['rm x'])
    expect(words('echo A=1')).toEqual(['echo A=1'])
  })
})
