// Which network addresses the server may connect to when it calls an address a client gave (a QR
// logo's, a webhook's). Anything that is not a plain public unicast address is refused, so a
// client cannot make the server reach its own loopback, the private network or a cloud metadata
// endpoint (SSRF). The host is resolved once, every answer checked, and the connection pinned to
// a checked address, so a second DNS answer (rebinding) cannot send it elsewhere.
import { lookup as dnsLookup } from 'node:dns/promises'
import { BlockList, isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net'

/** Decides whether the server may connect to one resolved address. */
export type AddressPolicy = (address: string) => boolean

const IPV4_NOT_PUBLIC: Array<[string, number]> = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
]

const IPV6_NOT_PUBLIC: Array<[string, number]> = [
  ['::', 96], // unspecified, loopback, deprecated IPv4-compatible
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
]

const notPublic = new BlockList()
for (const [network, prefix] of IPV4_NOT_PUBLIC) notPublic.addSubnet(network, prefix, 'ipv4')
for (const [network, prefix] of IPV6_NOT_PUBLIC) notPublic.addSubnet(network, prefix, 'ipv6')

/** The eight 16-bit groups of an IPv6 address (any textual form Node accepts). */
function ipv6Groups(address: string): number[] {
  // The URL parser normalises every IPv6 spelling (dotted tail, zero runs) to compressed hex.
  const compressed = new URL(`http://[${address}]/`).hostname.slice(1, -1)
  const [head = '', tail] = compressed.split('::')
  const headGroups = head ? head.split(':') : []
  const tailGroups = tail ? tail.split(':') : []
  const zeros = tail === undefined ? [] : Array(8 - headGroups.length - tailGroups.length).fill('0')
  return [...headGroups, ...zeros, ...tailGroups].map((group) => parseInt(group, 16))
}

function ipv4FromGroups(high: number, low: number): string {
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.')
}

/**
 * The IPv4 address an IPv6 address stands for when a translator or tunnel would deliver it to
 * IPv4 (NAT64 64:ff9b::/96, 6to4 2002::/16); undefined otherwise. IPv4-mapped addresses
 * (::ffff:a.b.c.d) need no help: BlockList matches them against the IPv4 rules itself.
 */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address)
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number]
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4FromGroups(g6, g7)
  if (g0 === 0x2002) return ipv4FromGroups(g1, g2)
  return undefined
}

/**
 * True only for a public unicast address: false for loopback, private, link-local, CGNAT,
 * unspecified, multicast, reserved and documentation ranges, for IPv6 forms of those
 * (IPv4-mapped, NAT64, 6to4), and for anything that is not an IP address at all.
 */
export function isPublicAddress(address: string): boolean {
  if (isIPv4(address)) return !notPublic.check(address, 'ipv4')
  if (!isIPv6(address)) return false
  // A zone index (fe80::1%eth0) only ever qualifies link-local addresses.
  if (address.includes('%')) return false
  if (notPublic.check(address, 'ipv6')) return false
  try {
    const ipv4 = embeddedIpv4(address)
    return ipv4 === undefined || !notPublic.check(ipv4, 'ipv4')
  } catch {
    // A spelling the URL parser does not take: not an address we can vouch for.
    return false
  }
}

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Resolves a host name to every address it has. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>

/** The system's resolver (getaddrinfo), every answer. */
export const systemResolver: HostResolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true })
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }))
}

/** A `lookup` for http.request that always answers the address already checked. */
export function pinnedLookup(pinned: ResolvedAddress): LookupFunction {
  return (_hostname, options, callback) => {
    // With autoSelectFamily (Node's default) net asks for every address at once.
    if ((options as { all?: boolean }).all) {
      ;(callback as unknown as (error: null, addresses: ResolvedAddress[]) => void)(null, [pinned])
    } else {
      callback(null, pinned.address, pinned.family)
    }
  }
}

/** Why a URL's host gives no address the server may connect to. */
export class AddressRefused extends Error {
  constructor(readonly reason: 'unresolved' | 'private', readonly host: string) {
    super(reason === 'unresolved' ? `the host ${host} could not be resolved` : `the host ${host} resolves to a private, local or reserved address`)
  }
}

/**
 * The address to connect to for `url`'s host (an address written in the URL, or the first the
 * resolver answers), to be pinned with `pinnedLookup`; throws AddressRefused when the host does
 * not resolve or, unless `allowPrivate`, when any of its addresses is not public.
 */
export async function permittedAddressOf(url: URL, resolveHost: HostResolver, allowPrivate: boolean): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const family = isIP(host)
  let addresses: ResolvedAddress[]
  if (family !== 0) addresses = [{ address: host, family: family as 4 | 6 }]
  else {
    try {
      addresses = await resolveHost(host)
    } catch {
      throw new AddressRefused('unresolved', host)
    }
  }
  const first = addresses[0]
  if (!first) throw new AddressRefused('unresolved', host)
  if (!allowPrivate && addresses.some((answer) => !isPublicAddress(answer.address))) throw new AddressRefused('private', host)
  return first
}
