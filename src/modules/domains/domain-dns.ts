// "The domain being added must already point to the service's server" (spec: Branded domains),
// checked by DNS against SERVER_IPS / SERVER_CNAME (decisions §6); and the look-ups that prove
// control of a domain (the TXT record `_linkwell.<domain>`, ADR 031). Every look-up goes through
// one resolver: the system's DNS servers, or DNS_SERVERS (tests point it at a server of their own).
import { promises as dns } from 'node:dns'
import { isIP } from 'node:net'

/** What DNS says about a hostname; a name without records has empty lists. */
export interface HostRecords {
  /** A and AAAA records (after following any CNAME chain). */
  addresses: string[]
  cnames: string[]
}

/** Looks up a hostname's records. Injected into the domain service so tests need no network. */
export type HostResolver = (hostname: string) => Promise<HostRecords>

/** Where branded domains must point: our addresses and/or the name to CNAME to. */
export interface ServerTarget {
  ips: string[]
  cname: string | undefined
}

async function recordsOrNone(lookup: Promise<string[]>): Promise<string[]> {
  try {
    return await lookup
  } catch {
    // ENOTFOUND, ENODATA, timeouts: no usable record of this type.
    return []
  }
}

/** What the TXT look-up of a name found: its records (each one's strings joined), or why there are none. */
export type TxtAnswer = { records: string[] } | { problem: 'none' | 'failed'; code: string }

/** The look-ups Linkwell makes itself, through one resolver. */
export interface DnsClient {
  /** A, AAAA and CNAME records of a hostname (the pointing check). */
  hostRecords: HostResolver
  /** Every address of a hostname, for a connection (webhooks, the link checker, QR logos); throws when it has none. */
  addresses(hostname: string): Promise<Array<{ address: string; family: 4 | 6 }>>
  /** TXT records of a name. */
  txt(name: string): Promise<TxtAnswer>
}

/**
 * A client asking `servers` (`host:port` or addresses, DNS_SERVERS), or the system's DNS servers
 * when none are given. A slow or unreachable DNS server must not hold a request for long: 2 tries
 * of 2 s per record type.
 */
export function createDnsClient(servers: readonly string[] = []): DnsClient {
  const resolver = new dns.Resolver({ timeout: 2_000, tries: 2 })
  if (servers.length > 0) resolver.setServers([...servers])
  return {
    async hostRecords(hostname) {
      const [ipv4, ipv6, cnames] = await Promise.all([
        recordsOrNone(resolver.resolve4(hostname)),
        recordsOrNone(resolver.resolve6(hostname)),
        recordsOrNone(resolver.resolveCname(hostname)),
      ])
      return { addresses: [...ipv4, ...ipv6], cnames }
    },
    async addresses(hostname) {
      // A and AAAA follow a CNAME chain themselves.
      const [ipv4, ipv6] = await Promise.all([recordsOrNone(resolver.resolve4(hostname)), recordsOrNone(resolver.resolve6(hostname))])
      const found = [...ipv4.map((address) => ({ address, family: 4 as const })), ...ipv6.map((address) => ({ address, family: 6 as const }))]
      if (found.length === 0) throw Object.assign(new Error(`${hostname} has no A or AAAA record`), { code: 'ENOTFOUND' })
      return found
    },
    async txt(name) {
      try {
        // A record longer than 255 bytes arrives in pieces: one value is their concatenation (RFC 7208 §3.3).
        return { records: (await resolver.resolveTxt(name)).map((pieces) => pieces.join('')) }
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? 'EFAIL'
        return code === dns.NOTFOUND || code === dns.NODATA ? { problem: 'none', code } : { problem: 'failed', code }
      }
    },
  }
}

/** Canonical text of an IP address, so that `2001:DB8:0::1` and `2001:db8::1` compare equal. */
export function canonicalIp(ip: string): string {
  return isIP(ip) === 6 ? new URL(`http://[${ip}]`).hostname.slice(1, -1) : ip
}

function canonicalName(name: string): string {
  return name.toLowerCase().replace(/\.$/, '')
}

/** The records of `hostname`, or none when the look-up fails: what the pointing check sees. */
export async function lookUpHost(resolve: HostResolver, hostname: string): Promise<HostRecords> {
  try {
    return await resolve(hostname)
  } catch {
    return { addresses: [], cnames: [] }
  }
}

/** True when `hostname` resolves to one of the server's addresses or is a CNAME of the server's name. */
export async function isPointingToServer(hostname: string, server: ServerTarget, resolve: HostResolver): Promise<boolean> {
  return recordsPointToServer(await lookUpHost(resolve, hostname), server, resolve)
}

/** The pointing check on records already looked up (the target name may still be looked up). */
export async function recordsPointToServer(records: HostRecords, server: ServerTarget, resolve: HostResolver): Promise<boolean> {
  const serverIps = new Set(server.ips.map(canonicalIp))
  if (records.addresses.some((address) => serverIps.has(canonicalIp(address)))) return true
  if (!server.cname) return false
  const target = canonicalName(server.cname)
  if (records.cnames.some((cname) => canonicalName(cname) === target)) return true
  // A zone apex cannot carry a CNAME; DNS hosts "flatten" it into the target's A/AAAA records,
  // so addresses shared with the target name count as pointing too.
  if (records.addresses.length === 0) return false
  const targetIps = new Set((await lookUpHost(resolve, target)).addresses.map(canonicalIp))
  return records.addresses.some((address) => targetIps.has(canonicalIp(address)))
}
