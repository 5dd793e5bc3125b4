import {describe, expect, it} from 'vitest'

import {type ContainerProbe, containerEvidence, detectContainer, nodeContainerProbe} from '../src/container.js'

function machine(files: Record<string, string>, env: Record<string, string> = {}): ContainerProbe {
  return {env, exists: (path) => path in files, readFile: (path) => files[path]}
}

const CGROUP_V2 = '0::/\n'

describe('detectContainer', () => {
  it.each([
    [
      'docker in /proc/1/cgroup (v1)',
      machine({'/proc/1/cgroup': '12:devices:/docker/4f1a\n1:name=systemd:/docker/4f1a\n'}),
      'docker',
    ],
    ['a docker scope (systemd driver)', machine({'/proc/1/cgroup': '0::/system.slice/docker-4f1a.scope\n'}), 'docker'],
    [
      'a pod, even one docker runs',
      machine({'/proc/1/cgroup': '11:cpu:/kubepods/besteffort/pod1/docker/4f1a\n'}),
      'k8s',
    ],
    ['libpod in /proc/1/cgroup', machine({'/proc/1/cgroup': '0::/machine.slice/libpod-4f1a.scope\n'}), 'podman'],
    ['/.dockerenv under cgroup v2', machine({'/.dockerenv': '', '/proc/1/cgroup': CGROUP_V2}), 'docker'],
    ['/run/.containerenv', machine({'/proc/1/cgroup': CGROUP_V2, '/run/.containerenv': ''}), 'podman'],
    ['KUBERNETES_SERVICE_HOST', machine({'/proc/1/cgroup': CGROUP_V2}, {KUBERNETES_SERVICE_HOST: '10.0.0.1'}), 'k8s'],
    ['an unreadable cgroup file', machine({'/.dockerenv': ''}), 'docker'],
    ['a plain host', machine({'/proc/1/cgroup': '0::/init.scope\n'}), null],
  ])('%s -> %s', (_name, probe, runtime) => {
    expect(detectContainer(probe)).toBe(runtime)
  })

  it('asks in HIP-301 order and names what gave it away', () => {
    const everything = machine(
      {'/.dockerenv': '', '/proc/1/cgroup': '0::/machine.slice/libpod-1.scope\n', '/run/.containerenv': ''},
      {KUBERNETES_SERVICE_HOST: '10.0.0.1'},
    )
    expect(containerEvidence(everything)).toEqual({runtime: 'podman', source: '/proc/1/cgroup'})
    const markers = machine({'/.dockerenv': '', '/run/.containerenv': ''}, {KUBERNETES_SERVICE_HOST: '10.0.0.1'})
    expect(containerEvidence(markers)).toEqual({runtime: 'docker', source: '/.dockerenv'})
  })

  it('names KUBERNETES_SERVICE_HOST when only the environment says pod, and reads the environment it is given', () => {
    const host = {'/proc/1/cgroup': CGROUP_V2}
    expect(containerEvidence(machine(host, {KUBERNETES_SERVICE_HOST: '10.0.0.1'}))).toEqual({
      runtime: 'k8s',
      source: 'KUBERNETES_SERVICE_HOST',
    })
    expect(containerEvidence(machine(host, {KUBERNETES_SERVICE_HOST: ''}))).toBeNull()
    expect(nodeContainerProbe({KUBERNETES_SERVICE_HOST: '10.0.0.1'}).env.KUBERNETES_SERVICE_HOST).toBe('10.0.0.1')
  })

  it('reads the real machine without throwing', () => {
    expect([null, 'docker', 'podman', 'k8s']).toContain(detectContainer(nodeContainerProbe(process.env)))
  })
})
