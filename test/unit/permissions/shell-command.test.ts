import {describe, expect, it} from 'vitest'

import {commandWords, parseShellCommand} from '../../../src/core/permissions/index.js'

const texts = (line: string) => parseShellCommand(line).commands.map((command) => command.text)
const hazards = (line: string) => parseShellCommand(line).hazards
/** Each command's text and words, the parts most cases are about. */
const read = (line: string) => parseShellCommand(line).commands.map(({text, words}) => ({text, words}))

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
    expect(read(`echo "a;b" 'c && d' e\\;f`)).toEqual([
      {text: `echo "a;b" 'c && d' e\\;f`, words: ['echo', 'a;b', 'c && d', 'e;f']},
    ])
    expect(hazards(`echo "a;b" 'c && d' e\\;f`)).toEqual([])
  })

  it('removes quotes into words, keeping empty words', () => {
    expect(parseShellCommand(`'git'  "sta"tus '' "a \\" \\$ \\x"`).commands[0].words).toEqual([
      'git',
      'status',
      '',
      'a " $ \\x',
    ])
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
    for (const line of [
      'echo $(id)',
      'echo "$(id)"',
      'echo `id`',
      'echo "`id`"',
      'diff <(ls a) b',
      'tee >(gzip) < x',
      'echo $((1 + 2))',
    ]) {
      expect(hazards(line), line).toEqual(['substitution'])
    }

    expect(read('echo "x $(rm -rf ~; ls) y" z')).toEqual([
      {text: 'rm -rf ~', words: ['rm', '-rf', '~']},
      {text: 'ls', words: ['ls']},
      {text: 'echo "x $(rm -rf ~; ls) y" z', words: ['echo', 'x $(rm -rf ~; ls) y', 'z']},
    ])
  })

  it('reads $(...) nested parentheses and a backtick inside $(...)', () => {
    expect(texts('a $( (b) ; `c` ) d')).toEqual(['b', 'c', '`c`', 'a $( (b) ; `c` ) d'])
  })

  it("reads a backtick's text again once its escapes are removed, as bash does, so backticks nest", () => {
    expect(texts('ls `ls \\`touch M\\``')).toEqual(['touch M', 'ls `touch M`', 'ls `ls \\`touch M\\``'])
    expect(texts('git status "`git status \\`touch M\\``"')).toEqual([
      'touch M',
      'git status `touch M`',
      'git status "`git status \\`touch M\\``"',
    ])
    // Read again, `\$X` expands and `\\$Y` is a literal `$Y`; inside "..." `\"` is a quote.
    const [inner] = parseShellCommand('echo `echo \\$X \\\\$Y`').commands
    expect(inner).toMatchObject({shapes: ['echo', '*', '$Y'], words: ['echo', '$X', '$Y']})
    expect(read('echo "`echo \\"a b\\"`"')[0]).toEqual({text: 'echo "a b"', words: ['echo', 'a b']})
    expect(hazards('echo `id')).toEqual(['substitution', 'unparsable'])
  })

  it('cannot read backticks nested through escapes deeper than 16 levels', () => {
    let line = 'touch M'
    for (let level = 0; level < 17; level++) line = `echo \`${line.replaceAll(/[$\\`]/g, '\\$&')}\``
    expect(hazards(line)).toContain('unparsable')
  })

  it('does not see substitutions inside single quotes', () => {
    expect(read("echo '$(id) `id`'")).toEqual([{text: "echo '$(id) `id`'", words: ['echo', '$(id) `id`']}])
    expect(hazards("echo '$(id) `id`'")).toEqual([])
  })

  it('reads a plain ${...} as part of a word, separators and spaces included', () => {
    expect(read('echo ${HOME}/x ${y:-a b; c}')).toEqual([
      {text: 'echo ${HOME}/x ${y:-a b; c}', words: ['echo', '${HOME}/x', '${y:-a b; c}']},
    ])
    expect(hazards('echo ${HOME}/x ${y:-a b; c}')).toEqual([])
  })

  it('cannot read a ${...} holding quotes or expansions, where shells disagree', () => {
    expect(hazards(`echo "\${x:-'}'}"`)).toEqual(['unparsable'])
    // Read on as text, it still finds what the braces would run.
    expect(hazards('echo ${x:-$(rm -rf ~)}')).toEqual(['unparsable', 'substitution'])
    expect(texts('echo ${x:-$(rm -rf ~)}')).toContain('rm -rf ~')
    expect(hazards('echo ${x')).toEqual(['unparsable'])
  })

  it('reports redirections to files but not descriptor duplications or /dev/null', () => {
    for (const line of [
      'ls > out',
      'ls >>out',
      'ls 2>err',
      'ls &> all',
      'ls &>>all',
      'ls >| out',
      'ls >&out',
      'exec 3<> file',
    ]) {
      expect(hazards(line), line).toEqual(['file-redirection'])
    }

    for (const line of [
      'npm test 2>&1',
      'ls >&2',
      'ls 2>&-',
      'ls > /dev/null 2>&1',
      'sort < in.txt',
      'cat <<< "text"',
      'cat 0<&3',
    ]) {
      expect(hazards(line), line).toEqual([])
    }
  })

  it('keeps redirections apart from the words, each with its descriptor, target and shape', () => {
    const [command] = parseShellCommand('npm test 2>&1 > "/dev/null" >> ~/log').commands
    expect(command.words).toEqual(['npm', 'test'])
    expect(command.redirections).toEqual([
      {operator: '2>&', shape: '1', target: '1', writes: false},
      {operator: '>', shape: '/dev/null', target: '/dev/null', writes: false},
      {operator: '>>', shape: '*/log', target: '~/log', writes: true},
    ])
    expect(parseShellCommand('echo 2 >&2').commands[0].words).toEqual(['echo', '2'])
  })

  it('keeps a command that is only a redirection, which still writes', () => {
    expect(parseShellCommand('> .hanzo/settings.json').commands).toEqual([
      {
        redirections: [{operator: '>', shape: '.hanzo/settings.json', target: '.hanzo/settings.json', writes: true}],
        shapes: [],
        text: '> .hanzo/settings.json',
        words: [],
      },
    ])
  })

  it('does not take the & of a redirection for a separator', () => {
    expect(texts('make 2>&1 &>/dev/null')).toEqual(['make 2>&1 &>/dev/null'])
  })

  it('reports here-documents', () => {
    expect(hazards('cat <<EOF\nhi\nEOF')).toEqual(['heredoc'])
    expect(hazards('cat <<-EOF\nhi\nEOF')).toEqual(['heredoc'])
  })

  it('reports what is unterminated or read differently by bash and dash', () => {
    for (const line of [
      'echo "oops',
      "echo 'oops",
      'echo $(id',
      'echo `id',
      'echo >',
      'echo > ; ls',
      "echo $'a\\'b'",
      "echo $'open",
      'ls > > x',
    ]) {
      expect(hazards(line), line).toContain('unparsable')
    }

    expect(read("echo $'a\\tb' \"$'x'\"")).toEqual([{text: "echo $'a\\tb' \"$'x'\"", words: ['echo', 'a\tb', "$'x'"]}])
  })

  it('stays linear on deep nesting and unclosed braces (a quadratic parse of a long line would time out)', () => {
    const deep = parseShellCommand(`${'$('.repeat(100_000)}rm -rf ~${')'.repeat(100_000)}`)
    expect(deep.hazards).toEqual(['substitution', 'unparsable'])
    expect(deep.commands.some((command) => command.text.startsWith('$($(') && command.text.includes('rm -rf ~'))).toBe(
      true,
    )
    expect(parseShellCommand('${'.repeat(200_000)).hazards).toEqual(['unparsable'])
    expect(parseShellCommand(`\${${'a'.repeat(200_000)}`.repeat(3)).hazards).toEqual(['unparsable'])
  })

  it("cuts where bash cuts after an escaped quote in $'...'", () => {
    expect(texts("echo $'\\'' ; rm -rf ~")).toEqual(["echo $'\\''", 'rm -rf ~'])
  })
})

describe('parseShellCommand: word shapes', () => {
  const shapes = (line: string) => parseShellCommand(line).commands.at(-1)!.shapes

  it('keeps quoted and escaped text literal, escaping the glob characters', () => {
    expect(shapes(`'a*b' "c?d" e\\*f`)).toEqual(['a\\*b', 'c\\?d', 'e\\*f'])
    expect(shapes(`'{a,b}' "~" '[x]'`)).toEqual(['{a,b}', '~', '[x]'])
  })

  it('makes every expansion a wildcard, also inside double quotes', () => {
    expect(shapes('echo $HOME "$1x" ${a:-b} $(id) `id` $((1+2)) <(ls)')).toEqual([
      'echo',
      '*',
      '*x',
      '*',
      '*',
      '*',
      '*',
      '*',
    ])
    expect(shapes('echo $ "$" $"text"')).toEqual(['echo', '$', '$', 'text'])
  })

  it('reads unquoted globs, brace expansions, bracket expressions and a leading tilde', () => {
    expect(shapes('a*b c?d {x,y}z {1..3} {} [ab]c [ ~/x ~user/y a~')).toEqual([
      'a*b',
      'c?d',
      '*z',
      '*',
      '{}',
      '?c',
      '[',
      '*/x',
      '*/y',
      'a~',
    ])
  })
})

describe('parseShellCommand: what bash reads otherwise', () => {
  it("decodes $'...' as bash does", () => {
    const word = (line: string) => parseShellCommand(line).commands[0].words[0]
    expect(word("$'\\x72\\x6d'")).toBe('rm')
    expect(word("$'\\162\\155'")).toBe('rm')
    expect(word("$'\\u0072m\\n\\t\\\\\\q'")).toBe('rm\n\t\\\\q')
    expect(word("$'\\cA\\e'")).toBe('\u0001\u001B')
  })

  it("ends a $'...' string at a NUL, as bash does: $'\\0'rm is rm", () => {
    const word = (line: string) => parseShellCommand(line).commands[0].words[0]
    for (const line of ["$'\\0'rm", "$'\\x00'rm", "$'\\c@'rm", "$'\\u0000'rm", "$'\\000x'rm", "$'r\\0x'm"])
      expect(word(line), line).toBe('rm')
    expect(word("$'a\\0b'c")).toBe('ac')
  })

  it('reads a parameter as one piece of the word', () => {
    expect(parseShellCommand('echo $HOME/x $@ $10').commands[0].words).toEqual(['echo', '$HOME/x', '$@', '$10'])
  })

  it('reports control, invisible and bidirectional characters', () => {
    for (const line of [
      'git status\rrm -rf ~',
      'echo a\u0000b',
      'ls \u202Etxt.exe',
      'g\u200Bit',
      'echo \u001B[2J',
      'a\u2028b',
    ]) {
      expect(hazards(line), JSON.stringify(line)).toContain('hidden-character')
    }

    expect(hazards('echo "tab\there"\necho ok')).toEqual([])
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
