import {isRecord} from '@hanzo-dev/sdk'

/** HIP-301 §10. */
export const ISOLATION_MODES = ['off', 'workspace', 'allowlist'] as const
export type IsolationMode = (typeof ISOLATION_MODES)[number]

/**
 * What `sandbox.mode` may say: HIP-301's modes, and `auto`, the default: `workspace` wherever
 * commands can be confined (bubblewrap or unshare works), containers included, and wherever a
 * host offers nothing better than path checks; `off` only inside a container where nothing can
 * confine commands (host-sandbox.ts decides, by trial runs).
 */
export const SANDBOX_MODES = ['auto', ...ISOLATION_MODES] as const
export type SandboxMode = (typeof SANDBOX_MODES)[number]

export interface SandboxConfig {
  mode: IsolationMode
  /** allowlist mode: where tools and commands may write; relative to the project root or absolute. */
  allowed_paths: string[]
  /** False: commands get no network. */
  network: boolean
}

/** `settings.sandbox` as written, with its defaults. */
export interface SandboxSettings extends Omit<SandboxConfig, 'mode'> {
  mode: SandboxMode
}

export interface ResolvedSandboxConfig {
  settings: SandboxSettings
  /** True when `mode` was not set and the default (`auto`) applies. */
  defaulted: boolean
}

/** `settings.sandbox` with its defaults: mode `auto`, the network on unless set to false. */
export function readSandboxConfig(raw: unknown): ResolvedSandboxConfig | {problem: string} {
  if (raw !== undefined && !isRecord(raw))
    return {problem: '"sandbox" must be an object {mode, allowed_paths, network}'}
  const section = raw ?? {}
  const mode = section.mode
  if (mode !== undefined && !SANDBOX_MODES.includes(mode as SandboxMode)) {
    return {problem: `sandbox.mode ${JSON.stringify(mode)} is not one of ${SANDBOX_MODES.join(', ')}`}
  }

  const paths = section.allowed_paths ?? []
  if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string' && p !== '')) {
    return {problem: 'sandbox.allowed_paths must be a list of paths'}
  }

  const network = section.network ?? true
  if (typeof network !== 'boolean') return {problem: 'sandbox.network must be true or false'}
  return {
    defaulted: mode === undefined,
    settings: {allowed_paths: paths as string[], mode: (mode as SandboxMode | undefined) ?? 'auto', network},
  }
}

/** How tool processes are confined: by a namespace tool, or only by checking the paths tools name. */
export type Enforcement = 'none' | 'bwrap' | 'unshare' | 'path-checks'

/** The namespace tools, in the order they are tried. */
export const MECHANISMS = ['bwrap', 'unshare'] as const
export type Mechanism = (typeof MECHANISMS)[number]

/** Forces one mechanism (or none), for tests and for machines where the first one misbehaves. */
export const MECHANISM_ENV = 'HANZO_SANDBOX_MECHANISM'

/** The mechanisms to try: all in order, or the one {@link MECHANISM_ENV} names (`path-checks`: none). */
export function mechanismsToTry(
  env: Readonly<Record<string, string | undefined>>,
): readonly Mechanism[] | {problem: string} {
  const forced = env[MECHANISM_ENV]
  if (forced === undefined || forced === '') return MECHANISMS
  if (forced === 'path-checks') return []
  if ((MECHANISMS as readonly string[]).includes(forced)) return [forced as Mechanism]
  return {problem: `${MECHANISM_ENV}=${forced} is not one of ${[...MECHANISMS, 'path-checks'].join(', ')}`}
}

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

/** What each enforcement does to a tool run, one line, shared by status, doctor and the agent's note. */
export const ENFORCEMENT_TEXT: Record<Enforcement, string> = {
  bwrap: 'bubblewrap: / read-only, the allowed paths writable, tool processes confined',
  none: 'no restrictions',
  'path-checks': 'path checks only: file tools are confined, processes they start are not',
  unshare: 'unshare mount namespace: / read-only, the allowed paths writable',
}
