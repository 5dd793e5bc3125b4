// Hierarchical settings (HIP-301 §4): user < project < local < environment. See load.ts for the
// order, schema.ts for the fields, env.ts for the variables, and the modules named below for rules.
export {ConfigError} from './config-error.js'
export {
  editTarget,
  type EditResult,
  type EditTarget,
  formatLike,
  parseCliValue,
  setSetting,
  type SettingsWriteIO,
  unsetSetting,
  withGitignoreEntry,
} from './edit.js'
export {formatOrigin, formatValue, type SettingEntry, settingEntries, settingEntry, shownConfig} from './display.js'
export {ENV_BINDINGS} from './env.js'
export {getAt, joinKey, leaves, resolveKey, suggestKey} from './key-path.js'
export {loadConfig, readSettingsFile} from './load.js'
export {type ConfigLocations, locateConfigFiles} from './locate.js'
export {hostAllowed} from './redirect-guard.js'
export {DEFAULT_MODEL} from './schema.js'
export {redactConfig} from './redact.js'
export {userOnlyReason} from './sensitive.js'
export {
  applyProjectTrust,
  type InertSettings,
  type ProjectAgents,
  projectAgents,
  type ProjectTier,
  type ProjectTrust,
  type ProjectTrustPort,
  settingsNeedingTrust,
  type TrustedSettings,
  trustDigest,
  type TrustRecord,
  trustStatus,
  type TrustStatus,
} from './trust.js'
export {renderTrustReview, reviewTrust, type TrustReview} from './trust-review.js'
export type * from './types.js'
