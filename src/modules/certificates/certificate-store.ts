// The certificates an instance serves, in memory: the TLS server picks one by SNI without a
// database read per handshake. Loaded at start, then each one again when the invalidation bus
// announces it (issued or renewed on any instance) and, for instances that share no bus, by a
// look every few seconds at what changed since the last load.
import { createSecureContext, type SecureContext } from 'node:tls'
import { backgroundLoop } from '../../core/background-loop.js'
import { CERTIFICATE_TOPIC, type InvalidationBus } from '../../core/invalidation.js'
import { pauseFor } from '../../core/pause.js'
import type { SecretBox } from '../../core/secret-box.js'
import type { CertificateRepository } from './certificate.repository.js'

export interface CertificateStoreOptions {
  /** Where issued certificates are kept (the certificate manager writes them). */
  certificates: CertificateRepository
  secrets: SecretBox
  invalidation: InvalidationBus
  /** How often changes made elsewhere are looked for. */
  pollMs: number
  onError?: (error: unknown) => void
}

export function createCertificateStore(options: CertificateStoreOptions) {
  const { certificates } = options
  const contexts = new Map<string, SecureContext>()
  const materials = new Map<string, { cert: string; key: string }>()
  const listeners: Array<(hostname: string) => void> = []
  let loadedUpTo = ''

  /** Loads the certificates changed after what this instance holds. */
  async function refresh(): Promise<void> {
    for (const row of await certificates.servable(loadedUpTo)) {
      try {
        const material = { cert: row.certificate!, key: options.secrets.open(row.private_key!) }
        contexts.set(row.hostname, createSecureContext(material))
        materials.set(row.hostname, material)
        listeners.forEach((listener) => listener(row.hostname))
      } catch (error) {
        options.onError?.(error)
      }
      if (row.updated_at > loadedUpTo) loadedUpTo = row.updated_at
    }
  }

  options.invalidation.subscribe((topic) => {
    if (topic === CERTIFICATE_TOPIC) refresh().catch((error: unknown) => options.onError?.(error))
  })

  const background = backgroundLoop(async (signal) => {
    while (!signal.aborted) {
      await pauseFor(options.pollMs, signal)
      if (!signal.aborted) await refresh().catch((error: unknown) => options.onError?.(error))
    }
  })

  return {
    refresh,
    /** Loads every certificate, then keeps up with changes. */
    async start(): Promise<void> {
      await refresh()
      background.start()
    },
    stop: async () => {
      await background.stop()
    },
    /** The context for a handshake naming `hostname`; undefined: none held (the handshake is refused). */
    contextOf: (hostname: string): SecureContext | undefined => contexts.get(hostname.toLowerCase().replace(/\.$/, '')),
    has: (hostname: string): boolean => contexts.has(hostname),
    /** The certificate and key of `hostname` (a server's default context takes them as options). */
    materialOf: (hostname: string) => materials.get(hostname),
    /** Told each hostname whose certificate was loaded (the TLS server updates its default). */
    onLoad: (listener: (hostname: string) => void) => listeners.push(listener),
  }
}

export type CertificateStore = ReturnType<typeof createCertificateStore>
