/**
 * "Did you mean ...?": the known name a mistyped one was meant to be, for setting keys and
 * command names alike. Close enough means at most one edit per four characters of the known
 * name (at least one), so `modle` finds `model` but `xyzzy` finds nothing rather than a guess.
 */
export function closest(typed: string, known: Iterable<string>): string | undefined {
  let best: {name: string; distance: number} | undefined
  for (const name of known) {
    const distance = editDistance(typed, name)
    if (distance <= Math.max(1, Math.floor(name.length / 4)) && (!best || distance < best.distance))
      best = {distance, name}
  }

  return best?.name
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit (`modle`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({length: a.length + 1}, (_, i) =>
    Array.from({length: b.length + 1}, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1)
    }
  }

  return rows[a.length][b.length]
}
