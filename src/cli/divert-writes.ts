import {StringDecoder} from 'node:string_decoder'

export interface Diverted {
  /** Writes on the stream itself, past the diversion. */
  write(text: string): void
  /** Ends the diversion: writes go to the stream again. */
  restore(): void
}

/**
 * Until `restore()`, whatever any code in the process writes to `stream` (a plugin's warning on
 * stderr, Node's own warnings, a library's log line) goes to `to` as text instead, so a screen that
 * redraws part of the terminal can put it above what it draws rather than under the cursor, where
 * the next redraw would cut it and leave a torn row in the scrollback.
 */
export function divertWrites(stream: NodeJS.WriteStream, to: (text: string) => void): Diverted {
  const original = stream.write
  const decoder = new StringDecoder('utf8')
  const diverted = function (
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | ((error?: Error | null) => void),
    callback?: (error?: Error | null) => void,
  ): boolean {
    const done = typeof encoding === 'function' ? encoding : callback
    const text = typeof chunk === 'string' ? chunk : decoder.write(Buffer.from(chunk))
    if (text !== '') to(text)
    if (done) process.nextTick(done)
    return true
  }

  stream.write = diverted as typeof stream.write
  return {
    restore() {
      if (stream.write === diverted) stream.write = original
    },
    write: (text) => void original.call(stream, text),
  }
}
