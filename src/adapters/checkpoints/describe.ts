import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import type {RewindPlan} from './rewind.js'

/**
 * A rewind's plan as lines (`sessions rewind` and the chat's `/rewind` show the same): the prompt,
 * a stat of the files, the conversation. `maxFileBytes`: the size cap, when the caller knows it.
 */
export function describePlan(
  plan: RewindPlan,
  what: {code: boolean; conversation: boolean},
  maxFileBytes?: number,
): string[] {
  const prompt = plan.prompts[plan.to - 1]
  const lines = [`Before prompt ${plan.to} of ${plan.prompts.length}: ${oneLine(prompt.text).slice(0, 100)}`]
  if (what.code) {
    const {created, deleted, modified} = plan.code
    const total = created.length + deleted.length + modified.length
    if (total === 0 && plan.code.notKept.length === 0) lines.push('Files: nothing to change.')
    else if (total > 0) {
      lines.push(`Files (${modified.length} restored, ${created.length} removed, ${deleted.length} brought back):`)
      for (const path of modified) lines.push(`  M ${oneLine(path)}`)
      for (const path of created) lines.push(`  D ${oneLine(path)}  (created since)`)
      for (const path of deleted) lines.push(`  A ${oneLine(path)}  (deleted since)`)
    }

    const cap = maxFileBytes === undefined ? 'checkpoints.max_file_bytes' : sizeCap(maxFileBytes)
    for (const path of plan.code.notKept)
      lines.push(`${oneLine(path)} changed but was over the size cap (${cap}): not restored`)
  }

  if (what.conversation)
    lines.push(`Conversation: ${plan.messages.now} messages now, ${plan.messages.before} after the rewind.`)
  return lines
}

/** The size cap as the setting's documentation gives it: whole MiB or KiB when it is one. */
function sizeCap(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}
