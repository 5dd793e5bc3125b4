import {oneLine} from '@hanzo-dev/sdk/terminal-text'

import {openAuthContext} from '../../adapters/auth/auth-context.js'
import {
  type CredentialReport,
  describeKeySource,
  describeSummary,
  jsonReport,
  keySource,
  type KeySource,
} from '../../cli/auth-report.js'
import {HanzoCommand} from '../../cli/base-command.js'
import {makeStyle} from '../../adapters/style.js'
import {configuredKey} from '../../core/agent/endpoint.js'
import {AUTO_DETECT_ORDER} from '../../core/auth/providers.js'

export default class AuthStatus extends HanzoCommand {
  static description = `Show the stored logins and the API keys found; never a token or a key itself.

Each login shows its provider, account, expiry and where it is kept; API keys are the ones found in the environment or your settings. Exit code 0 when any credential is found, 1 when none is.`

  static examples = ['<%= config.bin %> auth status', '<%= config.bin %> auth status --json']

  async run(): Promise<{backend: string; credentials: Omit<CredentialReport, 'expires'>[]; apiKeys: KeySource[]}> {
    await this.parse(AuthStatus)
    const {config, origins} = await this.settings()
    const context = await openAuthContext(config, process.env, (message) => this.warn(message))
    const reports = (await context.store.list()).map((summary) => describeSummary(summary, context))
    const apiKeys: KeySource[] = []
    for (const provider of new Set([...AUTO_DETECT_ORDER, ...Object.keys(config.providers ?? {})])) {
      const found = configuredKey(config, process.env, provider)
      if (found) apiKeys.push(keySource(provider, found.source, origins))
    }

    const style = makeStyle(process.stdout)
    if (reports.length === 0 && apiKeys.length === 0)
      this.log('Not logged in. Run `hanzo-dev auth login`, or set HANZO_API_KEY.')
    for (const report of reports) {
      const expiry = report.expires
        ? report.expired
          ? style.red(`expired ${report.expires}`)
          : `expires ${report.expires}`
        : undefined
      const renew = report.expired && report.renewable ? ' (renewed on next use)' : ''
      const details = [
        report.type === 'api_key' ? 'API key' : 'OAuth',
        report.account && `as ${oneLine(report.account)}`,
        expiry && expiry + renew,
      ]
      this.log(`${style.bold(report.provider)}: ${details.filter(Boolean).join(', ')} — ${report.storedIn}`)
    }

    for (const key of apiKeys) this.log(`${style.bold(key.provider)}: API key from ${describeKeySource(key)}`)
    if (reports.length === 0 && apiKeys.length === 0) process.exitCode = 1
    return {apiKeys, backend: context.backend, credentials: reports.map((report) => jsonReport(report))}
  }
}
