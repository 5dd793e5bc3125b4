import {expect} from 'vitest'

/** A clipboard write (OSC 52, "pwned" in base64) and a window title (OSC 0): what hostile text sends a terminal. */
export const CLIPBOARD = '\u001B]52;c;cHduZWQ=\u0007'
export const TITLE = '\u001B]0;pwned\u0007'

/** The bytes a terminal received carry neither sequence, and show both as the printer writes them (ESC as `^[`, BEL as `^G`). */
export function expectShownNotObeyed(raw: string): void {
  expect(raw).not.toContain('\u001B]52')
  expect(raw).not.toContain('\u001B]0;')
  expect(raw).not.toContain('\u0007')
  expect(raw).toContain('^[]52;c;cHduZWQ=^G')
  expect(raw).toContain('^[]0;pwned^G')
}
