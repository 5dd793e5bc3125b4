import {lookup} from 'node:dns/promises'
import {BlockList, isIP} from 'node:net'

/**
 * Addresses a fetch must not reach unless a rule names the host: a page the model was sent to
 * could otherwise reach this machine's services, the local network or a cloud metadata endpoint.
 */
const PRIVATE = new BlockList()
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(network, prefix, 'ipv6')

export function isPrivateAddress(address: string): boolean {
  const family = isIP(address)
  if (family === 0) return false
  if (family === 6) {
    // An IPv4 address written as IPv6 (::ffff:127.0.0.1) reaches the IPv4 host.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)
    if (mapped) return PRIVATE.check(mapped[1]!, 'ipv4')
  }

  return PRIVATE.check(address, family === 6 ? 'ipv6' : 'ipv4')
}

/** Every address the host resolves to (an IP literal is its own), as the connection would pick from them. */
export async function resolveHost(host: string): Promise<{address: string; family: number}[]> {
  const family = isIP(host)
  if (family !== 0) return [{address: host, family}]
  return lookup(host, {all: true, verbatim: true})
}
