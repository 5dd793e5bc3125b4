import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'

/** The wire formats a provider can speak, each with a model of its vendor. */
export const WIRE_FORMATS = [
  ['chat_completions', 'gpt-4o'],
  ['responses', 'gpt-5'],
  ['anthropic_messages', 'claude-sonnet-4-5'],
] as const

/** What the `fake` provider speaks, where the scripted model listens, and any provider setting besides. */
export interface FakeProvider {
  api: string
  url: string
  model?: string
  images?: boolean
  /** `providers.fake.prompt_cache`. */
  promptCache?: boolean
}

/** Writes the user's settings: provider `fake` (the scripted model) as the default, with `extra` settings. */
export function writeFakeProviderSettings(
  configHome: string,
  {api, images, model, promptCache, url}: FakeProvider,
  extra: Record<string, unknown> = {},
): void {
  mkdirSync(join(configHome, 'hanzo'), {recursive: true})
  const settings = {
    ...(model ? {model} : {}),
    provider: 'fake',
    providers: {
      fake: {
        api,
        api_key: 'sk-test-key',
        base_url: url,
        ...(images === undefined ? {} : {images}),
        ...(promptCache === undefined ? {} : {prompt_cache: promptCache}),
      },
    },
    ...extra,
  }
  writeFileSync(join(configHome, 'hanzo', 'settings.json'), JSON.stringify(settings))
}
