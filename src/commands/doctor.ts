import * as Flags from '@oclif/core/flags'
import {formatWarning} from '@hanzo-dev/sdk/settings'

import {fileMode, readSettingsText} from '../adapters/config-io.js'
import {probeWritable} from '../adapters/fs-probe.js'
import {hostInput} from '../adapters/host-context.js'
import {resolveRunEndpoint} from '../adapters/auth/auth-context.js'
import {modelErrorHint} from '../adapters/agent-session/model-client.js'
import {listEndpointModels, modelListEndpoint, NO_MODEL_LIST} from '../adapters/endpoint-models.js'
import {collectDoctorReports, hookTimeoutMs} from '../adapters/plugin-host.js'
import {HanzoCommand} from '../cli/base-command.js'
import {renderDoctor} from '../cli/render-doctor.js'
import {terminalSpinner} from '../cli/spinner.js'
import {makeStyle} from '../adapters/style.js'
import {type ModelEndpoint, settingsModel} from '../core/agent/endpoint.js'
import {ModelError} from '../core/agent/types.js'
import type {LoadedConfig} from '../core/config/index.js'
import {type SettingRank, settingRank} from '../core/config/precedence.js'
import {isPlainObject} from '../core/config/key-path.js'
import {JsonSyntaxError, parseJsonText} from '../core/config/json-text.js'
import {holdsCredential} from '../core/config/tier-check.js'
import {coreChecks} from '../core/doctor/core-checks.js'
import {type EndpointProbe, modelChecks} from '../core/doctor/model-checks.js'
import {type DoctorSummary, type SourcedCheck, summarize} from '../core/doctor/report.js'
import {UserError} from '../core/errors.js'

/** Long enough for a remote API over a slow link, short enough that doctor never seems to hang. */
const PROBE_TIMEOUT_MS = 3000

export default class Doctor extends HanzoCommand {
  static description = `Check that hanzo-dev and every plugin can work here.

Core checks Node.js, the settings files and the data directories; each plugin adds its own (git, language servers, hooks, sandbox isolation, model credentials, MCP servers). Exits 1 when any check fails.`

  static examples = [
    '<%= config.bin %> doctor',
    '<%= config.bin %> doctor --offline',
    '<%= config.bin %> doctor --json | jq .checks',
  ]

  static flags = {
    offline: Flags.boolean({description: 'Do not contact the model endpoint (its reachability check is skipped).'}),
  }

  async run(): Promise<DoctorSummary> {
    const {flags} = await this.parse(Doctor)
    // ora is loaded only when a spinner can be seen: it costs ~50 ms of start-up.
    const spinner = flags.json
      ? undefined
      : await terminalSpinner(process.stderr, makeStyle(process.stderr), 'Checking…')
    spinner?.start()

    const {configDir, dataDir} = this.paths
    let loaded: LoadedConfig | undefined
    let configError: {message: string} | undefined
    try {
      loaded = await this.settings({printWarnings: false})
    } catch (error) {
      if (!(error instanceof UserError)) throw error
      configError = {message: error.message}
    }

    const checks: SourcedCheck[] = coreChecks({
      configError,
      configFiles: loaded?.files ?? [],
      credentialFile: loaded ? await userCredentialFile(loaded.files[0].path) : undefined,
      nodeVersion: process.version,
      writable: [
        {dir: configDir, error: await probeWritable(configDir), label: 'config'},
        {dir: dataDir, error: await probeWritable(dataDir), label: 'data'},
      ],
    }).map((c) => ({...c, source: 'core'}))
    // Numbered in the loader's order (files, then keys), so each id is unique and the same run after run.
    for (const [i, w] of (loaded?.warnings ?? []).entries()) {
      checks.push({
        detail: formatWarning(w),
        id: `core.config.warning.${i + 1}`,
        source: 'core',
        status: 'warn',
        title: 'settings warning',
      })
    }

    // Plugins still get their say, on empty settings, when the settings cannot be read.
    const host = hostInput(loaded ?? {config: {}, projectRoot: process.cwd()}, process.cwd(), process.env)
    // The plugins are asked while the model endpoint is: either may take its whole timeout.
    const reports = collectDoctorReports(this.config, host, hookTimeoutMs(process.env))
    if (loaded) {
      const rank = settingRank(loaded)
      const warnings: string[] = []
      const model = await modelChecks({
        config: loaded.config,
        origins: loaded.origins,
        probe: flags.offline ? undefined : () => probeEndpoint(loaded, rank, (message) => warnings.push(message)),
        rank,
      })
      checks.push(...model.map((c) => ({...c, source: 'core'})))
      for (const [i, detail] of warnings.entries())
        checks.push({
          detail,
          id: `core.credentials.warning.${i + 1}`,
          source: 'core',
          status: 'warn',
          title: 'credentials',
        })
    }

    const {answers, warnings} = await reports
    for (const a of answers) checks.push(...a.value.checks.map((c) => ({...c, source: a.plugin})))
    for (const w of warnings) {
      checks.push({detail: w.message, id: 'plugin.answer', source: w.plugin, status: 'warn', title: 'plugin answered'})
    }

    spinner?.stop()
    const summary = summarize(checks)
    if (!flags.json) this.log(renderDoctor(summary, makeStyle(process.stdout)))
    if (!summary.ok) process.exitCode = 1
    return summary
  }
}

/**
 * What a run would find: its endpoint and credential (resolveRunEndpoint), asked for its models
 * with them. Errors a run would meet are answers; anything else is a bug and thrown.
 */
async function probeEndpoint(
  loaded: LoadedConfig,
  rank: SettingRank,
  warn: (message: string) => void,
): Promise<EndpointProbe> {
  const {config} = loaded
  let endpoint: ModelEndpoint
  try {
    endpoint = await resolveRunEndpoint(config, process.env, {model: settingsModel(config, rank), rank}, warn)
  } catch (error) {
    if (!(error instanceof UserError)) throw error
    return {hint: error.hint, kind: 'unresolved', message: error.message}
  }

  const {baseURL, model, provider} = endpoint
  try {
    const models = await listEndpointModels(modelListEndpoint(endpoint), {timeoutMs: PROBE_TIMEOUT_MS})
    return {baseURL, kind: 'listed', model, models: models.map((m) => m.id), provider}
  } catch (error) {
    if (!(error instanceof ModelError)) throw error
    const {message, status} = error
    const noList = error.code === NO_MODEL_LIST
    return {
      baseURL,
      error: {hint: modelErrorHint(error, endpoint), message, noList, status},
      kind: 'failed',
      model,
      provider,
    }
  }
}

/**
 * The user settings file when it holds a credential, read raw: the merged settings cannot tell
 * (they are redacted, and HANZO_API_KEY may stand in front of the file's `api_key`).
 */
async function userCredentialFile(path: string): Promise<{path: string; mode?: number} | undefined> {
  try {
    const text = await readSettingsText(path)
    const document = text === null ? undefined : parseJsonText(text)
    return isPlainObject(document) && holdsCredential(document) ? {mode: await fileMode(path), path} : undefined
  } catch (error) {
    // The loader read this file a moment ago: one changed since is for the next run to report.
    if (
      error instanceof UserError ||
      error instanceof JsonSyntaxError ||
      typeof (error as NodeJS.ErrnoException).code === 'string'
    )
      return undefined
    throw error
  }
}
