import {isRecord} from '@hanzo-dev/sdk'

import type {ContainerRuntime} from './container.js'

/** HIP-301 §10. */
export const ISOLATION_MODES = ['off', 'workspace', 'allowlist'] as const
export type IsolationMode = (typeof ISOLATION_MODES)[number]

export interface SandboxConfig {
  mode: IsolationMode
  allowed_paths: string[]
}

export interface ResolvedSandboxConfig {
  config: SandboxConfig
  /** True when `mode` was not set and the default applies. */
  defaulted: boolean
}

/**
 * `settings.sandbox` with HIP-301 §10's defaults: workspace on a host, off inside a
 * container (the container is the sandbox).
 */
export function readSandboxConfig(raw: unknown, container: ContainerRuntime | null): ResolvedSandboxConfig | {problem: string} {
  if (raw !== undefined && !isRecord(raw)) return {problem: '"sandbox" must be an object {mode, allowed_paths}'}
  const section = raw ?? {}
  const mode = section.mode
  if (mode !== undefined && !ISOLATION_MODES.includes(mode as IsolationMode)) {
    return {problem: `sandbox.mode ${JSON.stringify(mode)} is not one of ${ISOLATION_MODES.join(', ')}`}
  }

  const paths = section.allowed_paths ?? []
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string' && p !== '')) {
    return {problem: 'sandbox.allowed_paths must be a list of paths'}
  }

  return {
    config: {allowed_paths: paths as string[], mode: (mode as IsolationMode | undefined) ?? (container ? 'off' : 'workspace')},
    defaulted: mode === undefined,
  }
}

/** How tool processes are confined: by a namespace tool, or only by checking the paths tools name. */
export type Enforcement = 'none' | 'bwrap' | 'unshare' | 'path-checks'

/**
 * bubblewrap first (it sets up the read-only root and writable workspace itself), then a raw
 * unshare(1) mount namespace, and path checks alone when neither works here (HIP-301 §10's fallback).
 */
export function chooseEnforcement(mode: IsolationMode, works: {bwrap: boolean; unshare: boolean}): Enforcement {
  if (mode === 'off') return 'none'
  if (works.bwrap) return 'bwrap'
  if (works.unshare) return 'unshare'
  return 'path-checks'
}
