import type {ChalkInstance} from 'chalk'
import {printable} from '@hanzo-dev/sdk/terminal-text'

import type {DoctorSummary, SourcedCheck} from '../core/doctor/report.js'

const MARKS = {fail: '✗', ok: '✓', skip: '-', warn: '!'} as const

export function renderDoctor(summary: DoctorSummary, style: ChalkInstance): string {
  const colour = {fail: style.red, ok: style.green, skip: style.dim, warn: style.yellow}
  const bySource = new Map<string, SourcedCheck[]>()
  for (const c of summary.checks) bySource.set(c.source, [...(bySource.get(c.source) ?? []), c])

  const lines: string[] = []
  // Plugins wrote the checks, often quoting a server or a command: their text goes through the printer, our colours around it.
  for (const [source, checks] of bySource) {
    lines.push(style.bold(printable(source)))
    for (const c of checks) {
      const detail = c.detail ? style.dim(`  ${printable(c.detail)}`) : ''
      lines.push(`  ${colour[c.status](MARKS[c.status])} ${printable(c.title)}${detail}`)
      if (c.hint && c.status !== 'ok') lines.push(`      ${style.dim('→')} ${printable(c.hint)}`)
    }
  }

  const {fail, ok, warn} = summary.counts
  lines.push('', `${ok} ok, ${warn} ${warn === 1 ? 'warning' : 'warnings'}, ${fail} failed`)
  return lines.join('\n')
}
