// Tests reach only loopback addresses. A DNS look-up leaves the machine for its resolver even when
// the name is made up (hooks.example, shop.example): webhooks, the link checker, QR logos and the
// branded domains' checks would all ask it. Loaded into every test process (vitest's setupFiles)
// and, through NODE_OPTIONS, into every Node process a test starts (the built server, the CLI),
// this answers every name but the machine's own here and at once, as the closed network answers
// it after a round trip: not found. A test that needs an answer gives its code a resolver of its own.
import dns from 'node:dns'
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import { isIP } from 'node:net'
import { fileURLToPath } from 'node:url'

const INSTALLED = Symbol.for('linkwell.test.local-dns-only')
const SELF = `--import=${fileURLToPath(import.meta.url)}`

/** Names getaddrinfo answers from /etc/hosts, without asking a DNS server. */
function hostsFileNames() {
  try {
    const lines = fs.readFileSync('/etc/hosts', 'utf8').split('\n')
    return lines.flatMap((line) => line.replace(/#.*/, '').trim().split(/\s+/).slice(1)).filter(Boolean).map((name) => name.toLowerCase())
  } catch {
    return []
  }
}

function notFound(hostname, syscall) {
  const message = `${syscall} ENOTFOUND ${hostname} (tests ask no DNS server: test/helpers/local-dns-only.mjs)`
  return Object.assign(new Error(message), { code: 'ENOTFOUND', syscall, hostname })
}

/** The real system's syscall names, so an error reads as the real one would. */
const SYSCALL_OF = { resolve: 'queryA', resolve4: 'queryA', resolve6: 'queryAaaa', reverse: 'getHostByAddr' }
/** Every query of c-ares (dns.resolve*, dns.Resolver): each goes to a DNS server, local names included. */
const QUERIES = ['resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCaa', 'resolveCname', 'resolveMx', 'resolveNaptr', 'resolveNs', 'resolvePtr', 'resolveSoa', 'resolveSrv', 'resolveTxt', 'reverse']

/** Resolvers whose servers a test set itself (setServers), as opposed to the system's (which may be a local forwarder). */
const pointedByTests = new WeakSet()

/** True when `resolver` was pointed at servers on this machine only (127.0.0.0/8 or ::1, any port). */
function asksOnlyLoopback(resolver) {
  const servers = resolver.getServers()
  return pointedByTests.has(resolver) && servers.length > 0 && servers.every((server) => {
    const address = server.startsWith('[') ? server.slice(1, server.indexOf(']')) : isIP(server) === 6 ? server : server.split(':')[0]
    return address === '::1' || (isIP(address) === 4 && address.startsWith('127.'))
  })
}

function install() {
  dns[INSTALLED] = true
  const localNames = new Set(['localhost', ...hostsFileNames()])
  const asksTheNetwork = (hostname) => {
    if (typeof hostname !== 'string' || isIP(hostname) !== 0) return false
    const name = hostname.toLowerCase().replace(/\.$/, '')
    return !localNames.has(name) && !name.endsWith('.localhost')
  }

  const lookup = dns.lookup
  dns.lookup = function localLookup(hostname, options, callback) {
    if (!asksTheNetwork(hostname)) return lookup.call(this, hostname, options, callback)
    process.nextTick(typeof options === 'function' ? options : callback, notFound(hostname, 'getaddrinfo'))
    return {}
  }
  const promisedLookup = dns.promises.lookup
  dns.promises.lookup = async function localLookup(hostname, options) {
    if (!asksTheNetwork(hostname)) return promisedLookup.call(this, hostname, options)
    throw notFound(hostname, 'getaddrinfo')
  }

  for (const Resolver of [dns.Resolver, dns.promises.Resolver]) {
    const setServers = Resolver.prototype.setServers
    Resolver.prototype.setServers = function noteServers(servers) {
      setServers.call(this, servers)
      pointedByTests.add(this)
    }
  }

  for (const name of QUERIES) {
    const syscall = SYSCALL_OF[name] ?? name.replace(/^resolve/, 'query')
    const refuse = (hostname, ...rest) => process.nextTick(rest.findLast((argument) => typeof argument === 'function'), notFound(hostname, syscall))
    const refusePromised = async (hostname) => {
      throw notFound(hostname, syscall)
    }
    dns[name] = refuse
    dns.promises[name] = refusePromised
    // A resolver a test pointed at a DNS server of its own on loopback (DNS_SERVERS, the pebble
    // tests' pebble-challtestsrv) asks it: nothing leaves the machine.
    const ask = dns.Resolver.prototype[name]
    dns.Resolver.prototype[name] = function askLoopbackOnly(hostname, ...rest) {
      return asksOnlyLoopback(this) ? ask.call(this, hostname, ...rest) : refuse(hostname, ...rest)
    }
    const askPromised = dns.promises.Resolver.prototype[name]
    dns.promises.Resolver.prototype[name] = function askLoopbackOnly(hostname, ...rest) {
      return asksOnlyLoopback(this) ? askPromised.call(this, hostname, ...rest) : refusePromised(hostname)
    }
  }
  // `import { lookup } from 'node:dns/promises'` reads the replaced functions from now on.
  syncBuiltinESMExports()
}

// Vitest runs its setup files again for every test file of a worker: the functions are replaced once.
if (!dns[INSTALLED]) install()
if (!(process.env.NODE_OPTIONS ?? '').includes(SELF)) process.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, SELF].filter(Boolean).join(' ')
