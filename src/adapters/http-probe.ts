import type {ProbeResult} from '../core/doctor/model-checks.js'
import {systemErrorCode} from './api/model-errors.js'

/** Long enough for a remote API over a slow link, short enough that doctor never seems to hang. */
export const PROBE_TIMEOUT_MS = 3000

const REASONS: Record<string, string> = {
  EAI_AGAIN: 'its host name does not resolve (no network?)',
  ECONNREFUSED: 'connection refused: nothing is listening there',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  ENOTFOUND: 'its host name does not resolve',
}

/**
 * One GET to `url`, nothing sent with it (not even the URL's user info), redirects not followed:
 * whatever answers, at any status, is there. The body is never read.
 */
export async function probeUrl(url: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<ProbeResult> {
  if (!URL.canParse(url)) return {error: 'not a valid URL'}
  const target = new URL(url)
  target.username = ''
  target.password = ''
  try {
    const response = await fetch(target, {redirect: 'manual', signal: AbortSignal.timeout(timeoutMs)})
    await response.body?.cancel()
    return {status: response.status}
  } catch (error) {
    if (error instanceof DOMException && error.name === 'TimeoutError')
      return {error: `no answer within ${timeoutMs / 1000} s`}
    const code = systemErrorCode(error)
    if (code && REASONS[code]) return {error: REASONS[code]}
    // undici says what it refused in the cause ("unknown scheme", "bad port"), only "fetch failed" on the error.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
    return {error: code ?? (cause instanceof Error ? cause.message : String(cause))}
  }
}
