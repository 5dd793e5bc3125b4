/**
 * A signal for one call that follows the turn's. The SDK never removes the abort listener it adds
 * to the signal it is given: handed the turn's signal, every call of a turn would stay attached
 * to it, and an interrupt would send `notifications/cancelled` for calls long finished.
 */
export function callSignal(turn: AbortSignal | undefined): {signal: AbortSignal | undefined; release(): void} {
  if (!turn) return {release() {}, signal: undefined}
  const call = new AbortController()
  const forward = () => call.abort(turn.reason)
  if (turn.aborted) forward()
  else turn.addEventListener('abort', forward, {once: true})
  return {release: () => turn.removeEventListener('abort', forward), signal: call.signal}
}
