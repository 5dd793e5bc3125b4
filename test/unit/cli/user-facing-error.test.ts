import {CLIError} from '@oclif/core/errors'
import {describe, expect, it} from 'vitest'

import {jsonError, printableError, printableWarning} from '../../../src/cli/user-facing-error.js'

const HOSTILE = 'refused \u001B]52;c;cHduZWQ=\u0007'
const SHOWN = 'refused ^[]52;c;cHduZWQ=^G'

// The safety net under every error and warning a command prints: a server's words are often in them.
describe('printableError', () => {
  it('shows the escape sequences in the message, code, suggestions and causes oclif prints', () => {
    const cause = new Error(HOSTILE)
    const error = Object.assign(new CLIError(HOSTILE, {code: HOSTILE, exit: 3, suggestions: [HOSTILE]}), {cause})
    expect(printableError(error)).toBe(error)
    expect(error).toMatchObject({code: SHOWN, message: SHOWN, oclif: {exit: 3}, suggestions: [SHOWN]})
    expect(cause.message).toBe(SHOWN)
  })

  it('leaves a field it cannot write, and stops at a cause that comes round again', () => {
    const error = new Error(HOSTILE)
    Object.defineProperty(error, 'code', {get: () => 'FIXED'})
    error.cause = error
    expect(() => printableError(error)).not.toThrow()
    expect(error.message).toBe(SHOWN)
  })

  it('is not what --json prints: the message as it was (JSON escapes it)', () => {
    expect(jsonError(new CLIError(HOSTILE, {exit: 1})).error.message).toBe(HOSTILE)
  })
})

describe('printableWarning', () => {
  it('shows them in a warning, a string or an Error', () => {
    expect(printableWarning(HOSTILE)).toBe(SHOWN)
    expect((printableWarning(new Error(HOSTILE)) as Error).message).toBe(SHOWN)
  })
})
