import type {DoctorCheck} from '@hanzo-dev/sdk'

/** One line of `hanzo-dev doctor`: a check and who reported it ("core" or a plugin's name). */
export interface SourcedCheck extends DoctorCheck {
  source: string
}

export interface DoctorSummary {
  ok: boolean
  counts: Record<DoctorCheck['status'], number>
  checks: SourcedCheck[]
}

/** A failed check fails the run; warnings (a plugin that hung, an optional tool missing) do not. */
export function summarize(checks: SourcedCheck[]): DoctorSummary {
  const counts = {fail: 0, ok: 0, skip: 0, warn: 0}
  for (const c of checks) counts[c.status]++
  return {checks, counts, ok: counts.fail === 0}
}
