/** A small seeded PRNG (mulberry32), so "random" chunkings are the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d_2b_79_f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
}

/** Cut points: every element of `input` between two cuts becomes one chunk. */
export function splitAt<T extends string | Uint8Array>(input: T, cuts: number[]): T[] {
  const bounds = [...new Set(cuts.filter((c) => c > 0 && c < input.length))].sort((a, b) => a - b)
  const chunks: T[] = []
  let start = 0
  for (const end of [...bounds, input.length]) {
    chunks.push(input.slice(start, end) as T)
    start = end
  }

  return chunks
}

/** The chunkings every streaming parser must agree on: whole, one unit at a time, random. */
export function chunkings<T extends string | Uint8Array>(
  input: T,
  seeds: number[] = [1, 2, 3],
): Array<{how: string; chunks: T[]}> {
  const one = splitAt(
    input,
    Array.from({length: input.length}, (_, i) => i),
  )
  const result = [
    {how: 'whole', chunks: [input]},
    {how: 'one at a time', chunks: one},
  ]
  for (const seed of seeds) {
    const random = seededRandom(seed)
    const cuts = Array.from({length: Math.floor(random() * 8) + 1}, () => Math.floor(random() * input.length))
    result.push({how: `random split (seed ${seed})`, chunks: splitAt(input, cuts)})
  }

  return result
}
