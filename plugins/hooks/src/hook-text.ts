/** The longest deny reason passed on to the model: a hook cannot flood the conversation. */
export const MAX_REASON_CHARS = 2000

/**
 * What a hook printed, made safe to show the model and the terminal: bytes that are not UTF-8
 * become U+FFFD, terminal escape sequences and other control characters (all but newline and
 * tab) are removed, and the text is capped.
 */
export function sanitizeHookText(bytes: Uint8Array, maxChars = MAX_REASON_CHARS): string {
  const text = new TextDecoder('utf-8', {fatal: false})
    .decode(bytes)
    // CSI and OSC sequences first, so their parameters do not survive as stray text.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .replaceAll(/\u001B\[[0-?]*[ -/]*[@-~]|\u001B\][^\u0007\u001B]*(\u0007|\u001B\\)?/g, '')
    .replaceAll(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex -- as above
    .replaceAll(/[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g, '')
    .trim()
  return text.length > maxChars ? `${[...text].slice(0, maxChars).join('').trimEnd()}… (cut)` : text
}

/** The first line of {@link sanitizeHookText}, for a one-line log message. */
export function firstHookLine(bytes: Uint8Array): string {
  return sanitizeHookText(bytes, 300).split('\n', 1)[0]
}

/**
 * `text` cut to at most `maxBytes` of UTF-8 without splitting a character: an environment
 * variable has a size limit (128 KiB on Linux) past which the hook could not even start.
 */
export function capUtf8(text: string, maxBytes: number): {text: string; truncated: boolean} {
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length <= maxBytes) return {text, truncated: false}
  let end = maxBytes
  // Back up over continuation bytes (10xxxxxx) to the start of the character that was cut.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--
  return {text: bytes.subarray(0, end).toString('utf8'), truncated: true}
}
