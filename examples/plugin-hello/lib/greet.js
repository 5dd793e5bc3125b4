/** The contract version this plugin was written against (hanzo-dev's PLUGIN_API_VERSION). */
export const API_VERSION = 1

/** One greeting, shared by the command and the tool so both say the same thing. */
export function greet(name) {
  const who = typeof name === 'string' && name.trim() !== '' ? name.trim() : 'world'
  return `Hello, ${who}!`
}
