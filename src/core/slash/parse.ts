// What a line typed at the interactive prompt is: a slash command or text for the model.
//
// The rule (HIP-301 §11 leaves it open): a prompt is a command when it starts with `/` and a
// name, `[a-z][a-z0-9-]*` (or an MCP prompt's `mcp__<server>__<prompt>`, which may hold `_`),
// followed by whitespace or nothing. Everything else is text, sent as
// typed, so pasting a path or a URL never runs anything:
//   /commit                -> command "commit"
//   /compact keep the API  -> command "compact", args "keep the API"
//   /usr/bin/env ls        -> text (a "/" right after the name: a path)
//   /Help, /1x, " /help"   -> text (not a command name, or not at the very start)
//   //help                 -> text "/help" (a doubled slash sends one slash: the escape)
//   /                      -> text (the UI may open its command menu instead)
// A command-shaped line with an unknown name is not text: the registry answers "did you mean".

export const SLASH_NAME = /^(?:[a-z][a-z0-9-]*|mcp__[a-z0-9_-]+)$/

export type SlashLine = {kind: 'command'; name: string; args: string; argv: string[]} | {kind: 'text'; text: string}

const COMMAND = /^\/([a-z][a-z0-9-]*|mcp__[a-z0-9_-]+)(?:\s+([\s\S]*))?$/

export function parseSlashLine(input: string): SlashLine {
  if (input.startsWith('//')) return {kind: 'text', text: input.slice(1)}
  const match = COMMAND.exec(input)
  if (!match) return {kind: 'text', text: input}
  const args = (match[2] ?? '').trim()
  return {args, argv: args === '' ? [] : args.split(/\s+/), kind: 'command', name: match[1]}
}
