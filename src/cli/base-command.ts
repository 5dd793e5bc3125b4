import {homedir} from 'node:os'
import {Command} from '@oclif/core/command'
import {warn as printWarning} from '@oclif/core/errors'
import {formatWarning} from '@hanzo-dev/sdk/settings'

import type {LoadedConfig} from '../core/config/types.js'
import {resolvePaths} from '../core/paths.js'
import {printableWarning} from './user-facing-error.js'
import {loadUserSettings} from './user-settings.js'

/**
 * What every hanzo-dev command shares: `--json`, settings loaded once with their warnings on
 * stderr, and user errors printed as one clear message with the exit code they carry (the prerun
 * hook installs that for every command: installCommandErrors).
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
      this.loaded = await loadUserSettings()
      if (printWarnings) for (const w of this.loaded.warnings) this.warn(formatWarning(w))
    }

    return this.loaded
  }

  /**
   * Warnings go to stderr with --json too (oclif drops them then): stdout stays one JSON document,
   * and a script still learns that a credential went somewhere other than it asked. Through the
   * printer: a warning often quotes a server, a plugin or a file.
   */
  warn(input: string | Error): string | Error {
    printWarning(printableWarning(input))
    return input
  }
}
