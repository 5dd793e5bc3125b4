import {homedir} from 'node:os'
import {Command} from '@oclif/core/command'
import {CLIError, warn as printWarning} from '@oclif/core/errors'
import type {Interfaces} from '@oclif/core'
import {formatWarning} from '@hanzo-dev/sdk/settings'

import {nodeConfigIO} from '../adapters/config-io.js'
import {FileTrustStore} from '../adapters/trust-store.js'
import {loadConfig} from '../core/config/load.js'
import type {LoadedConfig} from '../core/config/types.js'
import {UserError} from '../core/errors.js'
import {resolvePaths} from '../core/paths.js'

/**
 * What every hanzo-dev command shares: `--json`, settings loaded once with their warnings on
 * stderr, and user errors printed as one clear message with the exit code they carry.
 */
export abstract class HanzoCommand extends Command {
  static enableJsonFlag = true

  private loaded?: LoadedConfig

  get paths() {
    return resolvePaths(process.env, homedir())
  }

  /** Settings warnings go to stderr, unless the command reports them itself (`doctor`). */
  protected async settings({printWarnings = true} = {}): Promise<LoadedConfig> {
    if (!this.loaded) {
      const trust = FileTrustStore.of(process.env, homedir())
      this.loaded = await loadConfig({cwd: process.cwd(), env: process.env, homedir: homedir(), io: nodeConfigIO, trust})
      if (printWarnings) for (const w of this.loaded.warnings) this.warn(formatWarning(w))
    }

    return this.loaded
  }

  /**
   * Warnings go to stderr with --json too (oclif drops them then): stdout stays one JSON document,
   * and a script still learns that a credential went somewhere other than it asked.
   */
  warn(input: string | Error): string | Error {
    printWarning(input)
    return input
  }

  protected async catch(err: Interfaces.CommandError): Promise<unknown> {
    if (err instanceof UserError) {
      const cli = new CLIError(err.message, {exit: err.exitCode, suggestions: err.hint ? [err.hint] : undefined})
      return super.catch(cli as Interfaces.CommandError)
    }

    return super.catch(err)
  }
}
