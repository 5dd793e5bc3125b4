import {createHash, randomBytes} from 'node:crypto'

import {ProtocolError} from './protocol-error.js'

/** RFC 7636 §4.1: 43 to 128 characters of [A-Z] [a-z] [0-9] "-" "." "_" "~". */
const VERIFIER = /^[\w.~-]{43,128}$/
const DEFAULT_LENGTH = 64

/**
 * A PKCE pair for the OAuth authorization-code flow (HIP-301 §6, RFC 7636). Only S256: the
 * "plain" method would send the verifier itself over the front channel.
 */
export class PkceChallenge {
  readonly method = 'S256' as const
  readonly challenge: string

  private constructor(readonly verifier: string) {
    this.challenge = createHash('sha256').update(verifier, 'ascii').digest('base64url')
  }

  /** A new pair whose verifier is `length` (43-128) characters from a CSPRNG. */
  static generate(length: number = DEFAULT_LENGTH): PkceChallenge {
    if (!Number.isInteger(length) || length < 43 || length > 128) {
      throw new RangeError(`A PKCE verifier has 43 to 128 characters, not ${length}`)
    }

    // base64url of random bytes is uniform over 64 symbols, all in the unreserved set.
    return new PkceChallenge(
      randomBytes(Math.ceil((length * 3) / 4))
        .toString('base64url')
        .slice(0, length),
    )
  }

  /** The pair for a known verifier, e.g. one restored from a pending login. */
  static fromVerifier(verifier: string): PkceChallenge {
    if (typeof verifier !== 'string' || !VERIFIER.test(verifier)) {
      const length = typeof verifier === 'string' ? verifier.length : 0
      throw new ProtocolError(
        'pkce_invalid_verifier',
        `A PKCE verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (got ${length} characters${length >= 43 && length <= 128 ? ' with others among them' : ''})`,
      )
    }

    return new PkceChallenge(verifier)
  }
}
