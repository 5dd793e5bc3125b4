export {parseSlashLine, SLASH_NAME, type SlashLine} from './parse.js'
export {
  type RegisteredSlashCommand,
  SlashCommandRegistry,
  type SlashCommandSource,
  type SlashResolution,
} from './registry.js'
