// The plugin ships no types: only what web_fetch uses of it.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown'

  export const tables: TurndownService.Plugin
}
