/**
 * What the host puts in place of every credential in `HostContext.settings`: plugins see
 * that a key is set, never its value.
 */
export const REDACTED = '[redacted]'

/**
 * Settings reach plugins as plain JSON that may be partial or hand-edited; plugins read
 * their section through this guard instead of trusting its shape.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
