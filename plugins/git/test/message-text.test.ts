import {describe, expect, it} from 'vitest'

import {branchFromMessage} from '../src/branches.js'
import {cleanMessage} from '../src/commit-message.js'
import {compareUrl, redactRemote, webRepository} from '../src/remote-url.js'
import {capDiff} from '../src/staged-change.js'

describe('cleanMessage', () => {
  it.each([
    ['```\nfeat: x\n```', 'feat: x'],
    ['```text\nfix(a): b\n\nbody\n```', 'fix(a): b\n\nbody'],
    ['Commit message:\nchore: tidy', 'chore: tidy'],
    ['"docs: quoted"', 'docs: quoted'],
    ['  feat: x  \n\n\n\nbody  \n', 'feat: x\n\nbody'],
  ])('%j -> %j', (reply, message) => {
    expect(cleanMessage(reply)).toBe(message)
  })
})

describe('branchFromMessage', () => {
  it.each([
    ['fix(parser): keep trailing commas', 'fix/parser-keep-trailing-commas'],
    ['feat!: drop Node 18\n\nBREAKING CHANGE: ...', 'feat/drop-node-18'],
    ['Update the README', 'update-the-readme'],
    ['chore: ~~~', 'chore/change'],
    [`feat: ${'word '.repeat(30)}`, 'feat/word-word-word-word-word-word-word-word-word'],
  ])('%j -> %j', (message, branch) => {
    expect(branchFromMessage(message)).toBe(branch)
  })
})

describe('compareUrl', () => {
  it.each([
    ['git@github.com:acme/widgets.git', 'https://github.com/acme/widgets/compare/main...feat/x?expand=1'],
    ['https://github.com/acme/widgets', 'https://github.com/acme/widgets/compare/main...feat/x?expand=1'],
    [
      'https://user:ghp_secret@github.com/acme/widgets.git',
      'https://github.com/acme/widgets/compare/main...feat/x?expand=1',
    ],
    [
      'ssh://git@github.example.com:2222/acme/widgets.git',
      'https://github.example.com/acme/widgets/compare/main...feat/x?expand=1',
    ],
    [
      'git@gitlab.com:group/sub/proj.git',
      'https://gitlab.com/group/sub/proj/-/merge_requests/new?merge_request%5Bsource_branch%5D=feat%2Fx&merge_request%5Btarget_branch%5D=main',
    ],
  ])('%s', (remote, url) => {
    expect(compareUrl(remote, 'main', 'feat/x')).toBe(url)
  })

  it('has none for a path or a file:// remote', () => {
    expect(compareUrl('/srv/git/widgets.git', 'main', 'x')).toBeUndefined()
    expect(compareUrl('file:///srv/git/widgets.git', 'main', 'x')).toBeUndefined()
    expect(webRepository('../widgets')).toBeUndefined()
  })

  it('redacts user info from a remote shown in a message', () => {
    expect(redactRemote('https://user:tok@github.com/a/b.git')).toBe('https://github.com/a/b.git')
  })
})

describe('capDiff', () => {
  const file = (name: string, lines: number) =>
    `diff --git a/${name} b/${name}\n--- a/${name}\n+++ b/${name}\n${'+line\n'.repeat(lines)}`

  it('keeps small diffs whole', () => {
    const diff = file('a', 3) + file('b', 3)
    expect(capDiff(diff)).toEqual({diff, truncated: false})
  })

  it('cuts each file at its share and says how many files did not fit', () => {
    const {diff, truncated} = capDiff(
      file('a', 1000) + file('b', 2) + file('c', 1000) + file('d', 2) + file('e', 2) + file('f', 2),
      850,
      400,
    )
    expect(truncated).toBe(true)
    expect(diff).toContain("[the rest of this file's diff is cut")
    expect(diff).toContain('diff --git a/b b/b')
    expect(diff).toMatch(/\[\d more file\(s\) not shown/)
    expect(diff.length).toBeLessThan(1200)
  })
})
