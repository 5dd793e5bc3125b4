import type {ChalkInstance} from 'chalk'

import type {DoctorSummary, SourcedCheck} from '../core/doctor/report.js'

const MARKS = {fail: '✗', ok: '✓', skip: '-', warn: '!'} as const

export function renderDoctor(summary: DoctorSummary, style: ChalkInstance): string {
  const colour = {fail: style.red, ok: style.green, skip: style.dim, warn: style.yellow}
  const bySource = new Map<string, SourcedCheck[]>()
  for (const c of summary.checks) bySource.set(c.source, [...(bySource.get(c.source) ?? []), c])

  const lines: string[] = []
  for (const [source, checks] of bySource) {
    lines.push(style.bold(source))
    for (const c of checks) {
      const detail = c.detail ? style.dim(`  ${c.detail}`) : ''
      lines.push(`  ${colour[c.status](MARKS[c.status])} ${c.title}${detail}`)
      if (c.hint && c.status !== 'ok') lines.push(`      ${style.dim('→')} ${c.hint}`)
    }
  }

  const {fail, ok, warn} = summary.counts
  lines.push('', `${ok} ok, ${warn} ${warn === 1 ? 'warning' : 'warnings'}, ${fail} failed`)
  return lines.join('\n')
}
