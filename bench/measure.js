// Times commands as whole processes, interleaved: every round runs each case once, in an
// order that rotates from round to round, so a machine that gets busier or quieter part-way
// through shifts every case alike instead of favouring whichever batch ran in the quiet part.
import {spawnSync} from 'node:child_process'

/**
 * @typedef {{name: string, command: string, args: string[]}} Case
 * @typedef {{name: string, command: string, args: string[], samples: number[], median: number, q1: number, q3: number}} Timing
 */

/** Runs one case to completion; throws when it fails, since timing a failure means nothing. */
function runOnce(c, options) {
  const start = process.hrtime.bigint()
  const result = spawnSync(c.command, c.args, {cwd: options.cwd, env: options.env, stdio: ['ignore', 'ignore', 'pipe']})
  const ms = Number(process.hrtime.bigint() - start) / 1e6
  if (result.error || result.status !== 0) {
    const why = result.error?.message ?? `exit ${result.status ?? result.signal}`
    throw new Error(`${c.name} failed (${why}): ${String(result.stderr).trim().slice(0, 2000)}`)
  }

  return ms
}

/** The value at fraction `p` of the sorted samples, interpolated between neighbours. */
export function quantile(sorted, p) {
  const at = (sorted.length - 1) * p
  const lo = Math.floor(at)
  const hi = Math.ceil(at)
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo)
}

/**
 * @param {Case[]} cases
 * @param {{runs: number, warmup: number, cwd: string, env: NodeJS.ProcessEnv, onRound?: (round: number) => void}} options
 * @returns {Timing[]}
 */
export function measureInterleaved(cases, options) {
  const samples = cases.map(() => [])
  const rounds = options.warmup + options.runs
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < cases.length; k++) {
      const i = (k + round) % cases.length
      const ms = runOnce(cases[i], options)
      if (round >= options.warmup) samples[i].push(ms)
    }

    options.onRound?.(round)
  }

  return cases.map((c, i) => {
    const sorted = [...samples[i]].sort((a, b) => a - b)
    return {
      args: c.args,
      command: c.command,
      median: quantile(sorted, 0.5),
      name: c.name,
      q1: quantile(sorted, 0.25),
      q3: quantile(sorted, 0.75),
      samples: samples[i],
    }
  })
}
