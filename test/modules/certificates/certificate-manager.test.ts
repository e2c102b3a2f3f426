// The certificate manager when the ACME server is down or refuses (issue 43): the order's reason
// is kept for the domain page, nothing is thrown, the next attempt waits (5 minutes, doubling),
// and only names proven (and the main host) are ever ordered. The successful orders: test/e2e/acme.e2e.test.ts.
import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSecretBox } from '../../../src/core/secret-box.js'
import { nowTimestamp } from '../../../src/core/time.js'
import { createCertificateManager, needsOrder, retryDelayMs } from '../../../src/modules/certificates/certificate-manager.js'
import { createCertificateRepository } from '../../../src/modules/certificates/certificate.repository.js'
import { createTestDatabase, type TestDatabase } from '../../helpers/test-database.js'

describe('the certificate manager when the ACME server fails', () => {
  let database: TestDatabase
  let closedPort: number
  let now = new Date(Math.floor(Date.now() / 1000) * 1000)
  const verified = ['go.brand.test']

  beforeAll(async () => {
    database = await createTestDatabase()
    // A port nobody listens on: the ACME server is down.
    const probe = net.createServer()
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
    closedPort = (probe.address() as net.AddressInfo).port
    await new Promise((resolve) => probe.close(resolve))
  })
  afterAll(() => database.destroy())

  function manager() {
    return createCertificateManager({
      certificates: createCertificateRepository(database.db),
      acme: { email: 'ops@brand.test', directoryUrl: `https://127.0.0.1:${closedPort}/dir` },
      publicHostname: null,
      verifiedHostnames: async () => verified,
      secrets: createSecretBox(null),
      invalidation: { publish: () => {} },
      pollMs: 3_600_000,
      now: () => now,
    })
  }

  it('keeps the reason, backs off, and orders again once the wait is over', async () => {
    const certificates = manager()
    expect(await certificates.runOnce()).toEqual(['go.brand.test'])
    const row = await database.db.selectFrom('tls_certificates').selectAll().where('hostname', '=', 'go.brand.test').executeTakeFirstOrThrow()
    expect(row).toMatchObject({ status: 'failed', certificate: null, failures: 1, next_attempt_at: nowTimestamp(new Date(now.getTime() + 5 * 60_000)), claimed_by: null })
    expect(row.error).toBe(`the ACME server at https://127.0.0.1:${closedPort}/dir cannot be reached (ECONNREFUSED)`)
    // Within the wait: nothing is ordered.
    now = new Date(now.getTime() + 4 * 60_000)
    expect(await certificates.runOnce()).toEqual([])
    now = new Date(now.getTime() + 60_000)
    expect(await certificates.runOnce()).toEqual(['go.brand.test'])
    expect((await database.db.selectFrom('tls_certificates').select(['failures', 'next_attempt_at']).where('hostname', '=', 'go.brand.test').executeTakeFirstOrThrow()))
      .toEqual({ failures: 2, next_attempt_at: nowTimestamp(new Date(now.getTime() + 10 * 60_000)) })
  })

  it('orders nothing for a name no workspace has proven, and the wait grows to a day at most', async () => {
    verified.length = 0
    now = new Date(now.getTime() + 24 * 60 * 60_000)
    expect(await manager().runOnce()).toEqual([])
    expect(retryDelayMs(1)).toBe(5 * 60_000)
    expect(retryDelayMs(3)).toBe(20 * 60_000)
    expect(retryDelayMs(20)).toBe(24 * 60 * 60_000)
  })

  it('renews 30 days before the end and not before', () => {
    const at = new Date('2026-12-06T12:00:00Z')
    const row = (expires: string) => ({ hostname: 'x', status: 'active' as const, certificate: 'PEM', private_key: 'KEY', expires_at: expires, error: null, failures: 0, next_attempt_at: null, claimed_by: null, claimed_until: null, updated_at: '' })
    expect(needsOrder(undefined, at)).toBe(true)
    expect(needsOrder(row('2027-01-06 12:00:01'), at)).toBe(false)
    expect(needsOrder(row('2027-01-05 12:00:00'), at)).toBe(true)
  })
})
