import {existsSync, readFileSync} from 'node:fs'

/** HIP-301 §10's answers. */
export type ContainerRuntime = 'docker' | 'podman' | 'k8s'

export interface ContainerEvidence {
  runtime: ContainerRuntime
  /** The file or variable that gave it away. */
  source: string
}

/** What detection reads, injected so tests can stand in any machine. */
export interface ContainerProbe {
  /** The file's text, or undefined when it cannot be read. */
  readFile(path: string): string | undefined
  exists(path: string): boolean
  env: Readonly<Record<string, string | undefined>>
}

export function nodeContainerProbe(env: Readonly<Record<string, string | undefined>>): ContainerProbe {
  return {
    env,
    exists: (path) => existsSync(path),
    readFile(path) {
      try {
        return readFileSync(path, 'utf8')
      } catch {
        return undefined
      }
    },
  }
}

/** The runtime hanzo-dev runs inside, or null on a host (HIP-301 §10 `detect_container`). */
export function detectContainer(probe: ContainerProbe): ContainerRuntime | null {
  return containerEvidence(probe)?.runtime ?? null
}

/**
 * HIP-301 §10's order: /proc/1/cgroup, /.dockerenv, /run/.containerenv,
 * KUBERNETES_SERVICE_HOST. Under cgroup v2 /proc/1/cgroup reads `0::/` and says nothing,
 * so the marker files carry most of the weight on current systems.
 */
export function containerEvidence(probe: ContainerProbe): ContainerEvidence | null {
  const cgroup = probe.readFile('/proc/1/cgroup')
  const fromCgroup = cgroup === undefined ? undefined : runtimeInCgroup(cgroup)
  if (fromCgroup) return {runtime: fromCgroup, source: '/proc/1/cgroup'}
  if (probe.exists('/.dockerenv')) return {runtime: 'docker', source: '/.dockerenv'}
  if (probe.exists('/run/.containerenv')) return {runtime: 'podman', source: '/run/.containerenv'}
  if (probe.env.KUBERNETES_SERVICE_HOST) return {runtime: 'k8s', source: 'KUBERNETES_SERVICE_HOST'}
  return null
}

// A pod's cgroup path names kubepods even when docker runs it, so k8s is asked first.
function runtimeInCgroup(text: string): ContainerRuntime | undefined {
  if (/kubepods/.test(text)) return 'k8s'
  if (/libpod|podman/.test(text)) return 'podman'
  if (/\/docker[/-]/.test(text)) return 'docker'
  return undefined
}
