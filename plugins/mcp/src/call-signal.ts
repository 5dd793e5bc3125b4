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

/**
 * `work`, or a rejection with the signal's reason once it aborts: a server's request it withdrew
 * (`notifications/cancelled`) stops our handler even if the host goes on asking.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason)
    if (signal.aborted) stop()
    signal.addEventListener('abort', stop, {once: true})
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop))
  })
}
