import {homedir} from 'node:os'
import {Command} from '@oclif/core/command'
import {CLIError} from '@oclif/core/errors'
import type {Interfaces} from '@oclif/core'

import {writeFileAtomic} from '../adapters/atomic-write.js'
import {nodeConfigIO, nodeSettingsWriteIO} from '../adapters/config-io.js'
import {editTarget, type EditTarget} from '../core/config/edit.js'
import {loadConfig} from '../core/config/load.js'
import {redactConfig} from '../core/config/sensitive.js'
import type {HanzoConfig, LoadedConfig, Tier} from '../core/config/types.js'
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

  protected async settings(): Promise<LoadedConfig> {
    if (!this.loaded) {
      this.loaded = await loadConfig({cwd: process.cwd(), env: process.env, homedir: homedir(), io: nodeConfigIO})
      for (const w of this.loaded.warnings) this.warn(`${w.file}: ${w.keyPath ? `${w.keyPath}: ` : ''}${w.message}`)
    }

    return this.loaded
  }

  /** The settings file of `tier` that `config set` / `unset` change, written atomically. */
  protected async settingsTarget(tier: Tier): Promise<EditTarget> {
    const options = {cwd: process.cwd(), env: process.env, homedir: homedir(), io: nodeConfigIO}
    return editTarget(options, tier, nodeSettingsWriteIO(writeFileAtomic))
  }

  /** What the plugin host hands to plugins: settings with credentials redacted. */
  protected hostInput(loaded: {config: Partial<HanzoConfig>; projectRoot: string}) {
    const {configDir, dataDir} = this.paths
    return {
      configDir,
      cwd: process.cwd(),
      dataDir,
      env: process.env,
      projectRoot: loaded.projectRoot,
      settings: redactConfig(loaded.config as HanzoConfig),
    }
  }

  protected async catch(err: Interfaces.CommandError): Promise<unknown> {
    if (err instanceof UserError) {
      const cli = new CLIError(err.message, {exit: err.exitCode, suggestions: err.hint ? [err.hint] : undefined})
      return super.catch(cli as Interfaces.CommandError)
    }

    return super.catch(err)
  }
}
