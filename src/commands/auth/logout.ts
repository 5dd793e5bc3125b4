import * as Flags from '@oclif/core/flags'

import {openAuthContext} from '../../adapters/auth/auth-context.js'
import {chooseProvider} from '../../cli/auth-terminal.js'
import {HanzoCommand} from '../../cli/base-command.js'
import {type RevocationResult, revokeCredential} from '../../core/auth/grant.js'
import {resolveAuthProvider, storedProviderName} from '../../core/auth/providers.js'
import {UserError} from '../../core/errors.js'

const REVOCATION_TIMEOUT_MS = 10_000

interface LogoutReport {
  provider: string
  /** What the server said: revoked, no revocation offered (unsupported), failed; none for API keys. */
  revocation?: RevocationResult
}

export default class AuthLogout extends HanzoCommand {
  static description = `Log out of a provider: revoke the login there and delete the stored credential.

The login is revoked at the provider when it offers revocation. The credential is deleted even when the server cannot be reached; the output says so.`

  static examples = ['<%= config.bin %> auth logout --provider hanzo', '<%= config.bin %> auth logout --all --json']

  static flags = {
    provider: Flags.string({char: 'p', description: 'Provider to log out of.', exclusive: ['all']}),
    all: Flags.boolean({description: 'Log out of every provider.'}),
  }

  async run(): Promise<{loggedOut: LogoutReport[]}> {
    const {flags} = await this.parse(AuthLogout)
    const {config} = await this.settings()
    const context = await openAuthContext(config, process.env, (message) => this.warn(message))
    const stored = (await context.store.list()).map((summary) => summary.provider)
    if (stored.length === 0 && !flags.provider) {
      this.log('Not logged in to any provider.')
      return {loggedOut: []}
    }

    const targets = flags.all
      ? stored
      : [flags.provider ? storedProviderName(flags.provider, config) : await chooseProvider(stored, 'log out of')]
    const loggedOut: LogoutReport[] = []
    for (const provider of targets) {
      const credential = await context.store.get(provider)
      if (!credential)
        throw new UserError(`Not logged in to ${provider}`, {
          hint: stored.length > 0 ? `logged in to: ${stored.join(', ')}` : undefined,
        })
      const report: LogoutReport = {provider}
      if (credential.type === 'oauth') {
        const outcome = await revokeCredential(
          this.authProvider(provider, config, credential.clientId),
          credential,
          context.fetch,
          AbortSignal.timeout(REVOCATION_TIMEOUT_MS),
        )
        report.revocation = outcome.result
        if (outcome.result === 'failed')
          this.warn(`could not revoke the ${provider} login at the server (${outcome.reason}); it is deleted here`)
      }

      await context.store.delete(provider)
      loggedOut.push(report)
      this.log(`Logged out of ${provider}${report.revocation === 'revoked' ? ' (revoked at the server)' : ''}.`)
    }

    return {loggedOut}
  }

  /** The provider's login settings, or a stand-in without endpoints (revocation then reports unsupported). */
  private authProvider(provider: string, config: Parameters<typeof resolveAuthProvider>[1], clientId?: string) {
    try {
      return resolveAuthProvider(provider, config, clientId)
    } catch {
      return {flow: 'pkce' as const, name: provider, scopes: []}
    }
  }
}
