import {gzipSync} from 'node:zlib'

import {describe, expect, it} from 'vitest'

import {webFetchTool} from '../../../src/adapters/tools/web-fetch.js'
import {isPrivateAddress} from '../../../src/adapters/tools/web-address.js'
import {PermissionPolicy} from '../../../src/core/permissions/index.js'
import {run, useLocalServer} from './tool-harness.js'

/** web_fetch judged by these user rules, as a session judges it. */
function fetchUnder(patterns: ReadonlyArray<readonly [pattern: string, mode: 'allow' | 'deny']>, maxBytes?: number) {
  const policy = new PermissionPolicy(
    patterns.map(([pattern, mode]) => ({file: 'settings.json', mode, pattern, tier: 'user' as const})),
  )
  const judge = (url: string) =>
    policy.evaluate('web_fetch', {kind: 'fetch', mutating: false, subject: {kind: 'url', url}})
  return {judge, tool: webFetchTool({judge, ...(maxBytes ? {maxBytes} : {})})}
}

const MB = 1024 * 1024
const ALLOW_LOOPBACK: Array<[string, 'allow']> = [['web_fetch(domain:127.0.0.1)', 'allow']]

describe('web_fetch', () => {
  const serve = useLocalServer()

  const fetch = (tool: ReturnType<typeof webFetchTool>, url: string) => run(tool, {url}, process.cwd())

  it('turns HTML into Markdown and returns other text as it is, gzip or not', async () => {
    const base = await serve((request, response) => {
      if (request.url === '/page') {
        response.setHeader('content-type', 'text/html; charset=utf-8')
        response.end(
          '<html><head><title>T</title><script>steal()</script></head><body><h1>Docs</h1><p>See <a href="/x">the <b>guide</b></a>.</p><ul><li>one</li></ul></body></html>',
        )
      } else if (request.url === '/notes.txt') {
        response.setHeader('content-type', 'text/plain')
        response.setHeader('content-encoding', 'gzip')
        response.end(gzipSync('plain <b>text</b>\n'))
      } else {
        response.setHeader('content-type', 'application/json')
        response.end('{"a": 1}')
      }
    })
    const {tool} = fetchUnder(ALLOW_LOOPBACK)
    const page = await fetch(tool, `${base}/page`)
    expect(page.error).toBeNull()
    expect(page.output).toContain(`${base}/page: text/html`)
    expect(page.output).toContain('# Docs')
    expect(page.output).toContain('See [the **guide**](/x).')
    expect(page.output).toMatch(/^\*\s+one$/m)
    expect(page.output).not.toContain('steal')
    expect((await fetch(tool, `${base}/notes.txt`)).output).toMatch(/\n\nplain <b>text<\/b>\n$/)
    expect((await fetch(tool, `${base}/data`)).output).toMatch(/application\/json, 8 bytes\n\n\{"a": 1\}$/)
  })

  it('converts the first part of a long page and says the rest was cut', async () => {
    const base = await serve((_request, response) =>
      response.setHeader('content-type', 'text/html').end(`<p>start</p>${'<p>filler text</p>'.repeat(60_000)}`),
    )
    const {output} = await fetch(fetchUnder(ALLOW_LOOPBACK).tool, `${base}/long`)
    expect(output).toContain('\n\nstart\n\nfiller text')
    expect(output).toMatch(
      /… the rest of http:\/\/127\.0\.0\.1:\d+\/long \(\d+ more characters of HTML\) was not converted$/,
    )
  })

  it('refuses binary content and reports an error status with its body', async () => {
    const base = await serve((request, response) => {
      if (request.url === '/logo.png') {
        response.setHeader('content-type', 'image/png')
        response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]))
      } else {
        response.writeHead(404, {'content-type': 'text/plain'})
        response.end('no such page')
      }
    })
    const {tool} = fetchUnder(ALLOW_LOOPBACK)
    expect((await fetch(tool, `${base}/logo.png`)).error).toBe(
      `${base}/logo.png is image/png content (7 bytes): web_fetch returns text only`,
    )
    const missing = await fetch(tool, `${base}/gone`)
    expect(missing.error).toBe(`${base}/gone answered 404 Not Found`)
    expect(missing.output).toContain('no such page')
  })

  it('follows a redirect on the same host, refuses one to a denied domain or to a host no rule allows', async () => {
    const base = await serve((request, response) => {
      const to = {'/moved': '/here', '/away': 'http://docs.example.org/x', '/evil': 'https://EVIL.example.com/a'}[
        request.url ?? ''
      ]
      if (to) response.writeHead(301, {location: to}).end()
      else response.end('arrived')
    })
    const {tool} = fetchUnder([...ALLOW_LOOPBACK, ['web_fetch(domain:*.example.com)', 'deny']])
    const moved = await fetch(tool, `${base}/moved`)
    expect(moved.output).toMatch(
      new RegExp(`^${base}/here \\(redirected from ${base}/moved\\): text, 7 bytes\n\narrived$`),
    )
    expect((await fetch(tool, `${base}/evil`)).error).toBe(
      `${base}/evil redirects to https://evil.example.com/a: "web_fetch(domain:*.example.com)" is denied by the user settings (settings.json)`,
    )
    expect((await fetch(tool, `${base}/away`)).error).toBe(
      `${base}/away redirects to http://docs.example.org/x, on another host no rule allows: call web_fetch with that URL to fetch it`,
    )
  })

  it('reaches a private or loopback address only when an allowing rule names its host', async () => {
    const base = await serve((_request, response) => response.end('secret'))
    for (const patterns of [[], [['web_fetch', 'allow']], [['web_fetch(*)', 'allow']]] as const) {
      const {tool} = fetchUnder(patterns)
      expect((await fetch(tool, `${base}/`)).error).toBe(
        '127.0.0.1 is a private, loopback or link-local address (127.0.0.1): fetched only when a permission rule names the host, such as "web_fetch(domain:127.0.0.1)"',
      )
    }

    expect((await fetch(fetchUnder([]).tool, 'http://[::1]:9/')).error).toMatch(/^::1 is a private/)
    expect((await fetch(fetchUnder(ALLOW_LOOPBACK).tool, `${base}/`)).output).toMatch(/secret$/)
    expect((await fetch(fetchUnder([[`web_fetch(${base}/*)`, 'allow']]).tool, `${base}/`)).output).toMatch(/secret$/)
    for (const address of [
      '10.1.2.3',
      '172.31.0.1',
      '192.168.1.1',
      '169.254.169.254',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
    ])
      expect(isPrivateAddress(address), address).toBe(true)
    for (const address of ['8.8.8.8', '172.32.0.1', '2606:4700::1111'])
      expect(isPrivateAddress(address), address).toBe(false)
  })

  it('refuses a body over the size cap, declared or streamed', async () => {
    const base = await serve((request, response) => {
      response.setHeader('content-type', 'text/plain')
      if (request.url === '/declared') response.end('x'.repeat(2 * MB))
      else {
        response.write('y'.repeat(0.6 * MB))
        response.end('y'.repeat(0.6 * MB))
      }
    })
    const {tool} = fetchUnder(ALLOW_LOOPBACK, MB)
    expect((await fetch(tool, `${base}/declared`)).error).toMatch(
      /\/declared is larger than 1 MB, the most web_fetch reads$/,
    )
    expect((await fetch(tool, `${base}/streamed`)).error).toMatch(/\/streamed is larger than/)
  })

  it('fetches only http and https URLs', async () => {
    const {tool} = fetchUnder(ALLOW_LOOPBACK)
    expect((await fetch(tool, 'file:///etc/passwd')).error).toBe(
      'file: URLs are not fetched: only http:// and https://',
    )
    expect((await fetch(tool, 'not a url')).error).toBe('not a url is not a URL')
  })

  it('is matched by domain rules: a host exactly, subdomains only with *.', () => {
    const {judge} = fetchUnder([
      ['web_fetch(domain:docs.python.org)', 'allow'],
      ['web_fetch(domain:*.example.com)', 'deny'],
    ])
    expect(judge('https://docs.python.org/3/library/').mode).toBe('allow')
    expect(judge('https://DOCS.python.org/3/').mode).toBe('allow')
    expect(judge('https://python.org/').mode).toBe('prompt')
    expect(judge('https://evil.docs.python.org/').mode).toBe('prompt')
    expect(judge('https://a.b.example.com/').mode).toBe('deny')
    expect(judge('https://example.com/').mode).toBe('prompt')
    // Not a read-only default: with no rule a fetch is asked about.
    expect(
      new PermissionPolicy([]).evaluate('web_fetch', {
        kind: 'fetch',
        mutating: false,
        subject: {kind: 'url', url: 'https://a.org/'},
      }).mode,
    ).toBe('prompt')
  })
})
