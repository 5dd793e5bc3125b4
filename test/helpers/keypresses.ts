import {emitKeypressEvents} from 'node:readline'
import {PassThrough} from 'node:stream'

import {keyNotations} from '../../src/ui/keys.js'

/** The keys (vim notation) the widgets get for `bytes` typed at a terminal, decoded by node:readline as in the session. */
export async function typedKeys(bytes: string, options: {vim: boolean} = {vim: false}): Promise<string[]> {
  const input = new PassThrough()
  emitKeypressEvents(input)
  const keys: string[] = []
  input.on('keypress', (text: string | undefined, key) => keys.push(...keyNotations(text, key, options)))
  input.write(bytes)
  await new Promise((resolve) => setImmediate(resolve))
  return keys
}
