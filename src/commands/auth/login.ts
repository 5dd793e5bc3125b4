import type {Interfaces} from '@oclif/core'
import * as Flags from '@oclif/core/flags'
import {oneLine, printable} from '@hanzo-dev/sdk/terminal-text'

import {openAuthContext} from '../../adapters/auth/auth-context.js'
import {loginWithOAuth} from '../../cli/auth-login.js'
import {describeCredential, jsonReport} from '../../cli/auth-report.js'
import {chooseLogin, interruptSignal, readApiKey, withSpinner} from '../../cli/auth-terminal.js'
import {HanzoCommand} from '../../cli/base-command.js'
import type {Credential} from '../../core/auth/credentials.js'
import {loginChoices, resolveAuthProvider} from '../../core/auth/providers.js'
import {UserError} from '../../core/errors.js'

export default class AuthLogin extends HanzoCommand {
  static description = `Log in to a model provider and keep the credential for later runs.

Opens the provider's login page in your browser (OAuth with PKCE) and receives the answer on 127.0.0.1. On a machine without a browser (SSH, containers) use --device to approve the login from another device, or --no-browser to paste back the URL the browser ends on. --with-api-key stores an API key read from stdin instead.

Credentials go to the OS keychain (macOS, Windows; on Linux when credentials.store is keychain) or to credentials.json (mode 0600) beside your user settings. A provider is hanzo, anthropic, openai, a name under providers.<name>.oauth in your user settings, or an issuer URL.`

  static examples = [
    '<%= config.bin %> auth login',
    '<%= config.bin %> auth login --provider hanzo --device',
    '<%= config.bin %> auth login --provider https://id.example.com --client-id my-cli --no-browser',
    'printenv OPENAI_API_KEY | <%= config.bin %> auth login --provider openai --with-api-key',
  ]

  static flags = {
    provider: Flags.string({char: 'p', description: 'Provider name or OAuth issuer URL.'}),
    device: Flags.boolean({
      description: 'Log in with a code entered on another device (RFC 8628).',
      exclusive: ['with-api-key', 'no-browser'],
    }),
    'no-browser': Flags.boolean({
      description: 'Print the login URL instead of opening a browser, and read the redirect URL or code from stdin.',
    }),
    'with-api-key': Flags.boolean({description: 'Store an API key read from stdin instead of logging in.'}),
    'client-id': Flags.string({description: 'OAuth client id (for an issuer URL, or to override the provider table).'}),
  }

  /** oclif quotes an unexpected argument back, and here that is most likely a key typed in by mistake. */
  protected async catch(error: Interfaces.CommandError): Promise<unknown> {
    if (!/^Unexpected arguments?: /.test(error.message)) return super.catch(error)
    return super.catch(
      new UserError('auth login takes no arguments; an API key goes on stdin', {
        exitCode: 2,
        hint: 'printenv MY_KEY | hanzo-dev auth login --provider <name> --with-api-key',
      }) as unknown as Interfaces.CommandError,
    )
  }

  async run(): Promise<ReturnType<typeof jsonReport>> {
    const {flags} = await this.parse(AuthLogin)
    const {config} = await this.settings()
    const context = await openAuthContext(config, process.env, (message) => this.warn(message))
    // Unnamed, the person picks how: a login that works as the settings are, or a provider's API key.
    const chosen = flags.provider === undefined ? await chooseLogin(loginChoices(config)) : undefined
    const name = flags.provider ?? chosen!.provider
    const withApiKey = flags['with-api-key'] || chosen?.method === 'api_key'
    const {release, signal} = interruptSignal('Login')
    let credential: Credential
    let provider: string
    try {
      if (withApiKey) {
        provider = resolveAuthProvider(name, config).name
        credential = {key: await readApiKey(provider), type: 'api_key'}
        await context.store.store(provider, credential)
      } else {
        const resolved = resolveAuthProvider(name, config, flags['client-id'])
        provider = resolved.name
        credential = await loginWithOAuth(
          context,
          resolved,
          {browser: !flags['no-browser'], device: flags.device},
          {
            input: process.stdin,
            // The server's words are in these lines (its verification URI, its user code).
            say: (message) => process.stderr.write(`${printable(message)}\n`),
            signal,
            waiting: withSpinner,
            warn: (message) => this.warn(message),
          },
        )
      }
    } finally {
      release()
    }

    const report = describeCredential(provider, credential, context)
    this.log(
      `Logged in to ${provider}${report.account ? ` as ${oneLine(report.account)}` : ''}${report.expires ? ` (token expires ${report.expires})` : ''}; stored in ${report.storedIn}`,
    )
    return jsonReport(report)
  }
}
