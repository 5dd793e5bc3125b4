/** What went wrong, as a stable code that the vectors and callers can match on. */
export type ProtocolErrorCode =
  | 'backoff_invalid_option'
  | 'backoff_invalid_random'
  | 'mcp_invalid_name'
  | 'pkce_invalid_verifier'
  | 'sse_buffer_overflow'

/**
 * Bad input to one of the HIP-301 protocol pieces (a hostile stream, a malformed verifier, a
 * name that cannot be normalized). The message says what was wrong without echoing secrets.
 */
export class ProtocolError extends Error {
  readonly code: ProtocolErrorCode

  constructor(code: ProtocolErrorCode, message: string) {
    super(message)
    this.name = 'ProtocolError'
    this.code = code
  }
}
