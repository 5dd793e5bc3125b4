import * as Flags from '@oclif/core/flags'
import {printable} from '@hanzo-dev/sdk/terminal-text'

import {bearerOf, freshCredential, openAuthContext} from '../../adapters/auth/auth-context.js'
import {describeKeySource, keySource} from '../../cli/auth-report.js'
import {HanzoCommand} from '../../cli/base-command.js'
import {configuredKey} from '../../core/agent/endpoint.js'
import {AUTO_DETECT_ORDER, storedProviderName} from '../../core/auth/providers.js'
import {UserError} from '../../core/errors.js'

export default class AuthToken extends HanzoCommand {
  static description = `Print a valid access token (or the stored API key) on stdout, for scripts.

An expired login is renewed first. Concurrent calls are safe: a renewal happens once, under a lock, and every caller gets the new token.`

  static examples = [
    'curl -H "Authorization: Bearer $(<%= config.bin %> auth token --provider hanzo)" https://api.hanzo.ai/v1/models',
  ]

  // The output is the secret itself: nothing else, and no JSON wrapper to log by accident.
  static enableJsonFlag = false

  static flags = {
    provider: Flags.string({
      char: 'p',
      description: 'Provider (default: the first logged-in of hanzo, anthropic, openai).',
    }),
  }

  async run(): Promise<void> {
    const {flags} = await this.parse(AuthToken)
    const {config, origins} = await this.settings()
    const context = await openAuthContext(config, process.env, (message) => this.warn(message))
    const stored = new Set((await context.store.list()).map((summary) => summary.provider))
    const provider = flags.provider
      ? storedProviderName(flags.provider, config)
      : (AUTO_DETECT_ORDER.find((name) => stored.has(name)) ?? [...stored][0])
    const credential = provider === undefined ? undefined : await freshCredential(context, provider)
    if (!credential) {
      // A key from the environment or the settings is no login to print, but it is no "not logged in" either.
      const keyed = provider ?? AUTO_DETECT_ORDER.find((name) => configuredKey(config, process.env, name))
      const found = keyed === undefined ? undefined : configuredKey(config, process.env, keyed)
      if (keyed && found) {
        const key = keySource(keyed, found.source, origins)
        const where = key.file ? describeKeySource(key) : `the environment (${key.source})`
        throw new UserError(`No stored login for ${keyed}: its API key comes from ${where}`, {
          hint: `${key.file ? 'use the key in that file' : `use $${key.source}`} directly, or store a login for auth token to print: hanzo-dev auth login --provider ${keyed}`,
        })
      }

      throw new UserError(provider ? `Not logged in to ${provider}` : 'Not logged in', {
        hint: `run hanzo-dev auth login${provider ? ` --provider ${provider}` : ''}`,
      })
    }

    // A valid token has no control character (RFC 6750); one a hostile server issued is shown, not obeyed.
    process.stdout.write(`${printable(bearerOf(credential))}\n`)
  }
}
