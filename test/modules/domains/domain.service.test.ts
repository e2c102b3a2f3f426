// The DNS rule of domain creation, with a fake resolver instead of the network.
import { bindable } from '../../../src/db/transactions.js'
import { ANNOUNCE_NOTHING } from '../../../src/core/invalidation.js'
import { beforeAll, describe, expect, it } from 'vitest'
import type { AuthenticatedAccount } from '../../../src/modules/access/authenticated-account.js'
import type { HostRecords, HostResolver } from '../../../src/modules/domains/domain-dns.js'
import { createDomainRepository } from '../../../src/modules/domains/domain.repository.js'
import { createDomainService, type DomainServiceOptions } from '../../../src/modules/domains/domain.service.js'
import { actingAs } from '../../helpers/factories.js'
import { PUBLIC_URL, useTestApp } from '../../helpers/test-app.js'
import { AppError } from '../../../src/core/errors.js'

const NONE: HostRecords = { addresses: [], cnames: [] }

/** A resolver answering from a fixed table and remembering what it was asked. */
function fakeResolver(table: Record<string, HostRecords>): HostResolver & { asked: string[] } {
  const asked: string[] = []
  const resolve = async (hostname: string) => {
    asked.push(hostname)
    return table[hostname] ?? NONE
  }
  return Object.assign(resolve, { asked })
}

describe('domain service DNS check', () => {
  let account: AuthenticatedAccount
  let hostCounter = 0

  function uniqueHost(): string {
    hostCounter += 1
    return `go${hostCounter}.customer.example`
  }

  function serviceWith(server: DomainServiceOptions['server'], resolveHost: HostResolver) {
    return createDomainService({ domains: bindable(createDomainRepository, context.database.db), publicUrl: PUBLIC_URL, server, resolveHost, invalidation: ANNOUNCE_NOTHING, journal: context.services.journal })
  }

  async function rejection(promise: Promise<unknown>): Promise<AppError> {
    const error = await promise.then(() => undefined, (thrown: unknown) => thrown)
    expect(error).toBeInstanceOf(AppError)
    return error as AppError
  }

  const { context, owner } = useTestApp()

  beforeAll(async () => {
    account = await actingAs(context, owner)
  })

  it('accepts a domain whose A record is one of SERVER_IPS', async () => {
    const host = uniqueHost()
    const service = serviceWith({ ips: ['198.51.100.1', '203.0.113.7'], cname: undefined }, fakeResolver({ [host]: { addresses: ['203.0.113.7'], cnames: [] } }))
    const domain = await service.createDomain(account, { domain: `https://${host}` })
    expect(domain).toMatchObject({ domain: `https://${host}`, hostname: host, account_id: account.id })
  })

  it('compares IPv6 addresses in canonical form', async () => {
    const host = uniqueHost()
    const service = serviceWith({ ips: ['2001:DB8:0:0::10'], cname: undefined }, fakeResolver({ [host]: { addresses: ['2001:db8::10'], cnames: [] } }))
    await expect(service.createDomain(account, { domain: `https://${host}` })).resolves.toMatchObject({ hostname: host })
  })

  it('accepts a CNAME to SERVER_CNAME, whatever its case and trailing dot', async () => {
    const host = uniqueHost()
    const service = serviceWith({ ips: [], cname: 'edge.linkwell.example' }, fakeResolver({ [host]: { addresses: ['192.0.2.50'], cnames: ['Edge.Linkwell.Example.'] } }))
    await expect(service.createDomain(account, { domain: `https://${host}` })).resolves.toMatchObject({ hostname: host })
  })

  it('accepts a flattened CNAME at a zone apex: the same addresses as SERVER_CNAME', async () => {
    const host = uniqueHost()
    const resolver = fakeResolver({
      [host]: { addresses: ['192.0.2.80'], cnames: [] },
      'edge.linkwell.example': { addresses: ['192.0.2.80', '192.0.2.81'], cnames: [] },
    })
    const service = serviceWith({ ips: [], cname: 'edge.linkwell.example' }, resolver)
    await expect(service.createDomain(account, { domain: `https://${host}` })).resolves.toMatchObject({ hostname: host })
    expect(resolver.asked).toEqual([host, 'edge.linkwell.example'])
  })

  it('refuses a domain pointing elsewhere with 400 `The domain is not pointing to our server.` and stores nothing', async () => {
    const host = uniqueHost()
    const service = serviceWith({ ips: ['203.0.113.7'], cname: 'edge.linkwell.example' }, fakeResolver({
      [host]: { addresses: ['198.51.100.99'], cnames: ['someone-else.example'] },
      'edge.linkwell.example': { addresses: ['203.0.113.7'], cnames: [] },
    }))
    const error = await rejection(service.createDomain(account, { domain: `https://${host}` }))
    expect(error.message).toBe('The domain is not pointing to our server.')
    expect(error.code).toBe('domain_not_pointing')
    const stored = await context.database.db.selectFrom('domains').select('id').where('hostname', '=', host).executeTakeFirst()
    expect(stored).toBeUndefined()
  })

  it('refuses a domain without any record, and one whose lookup fails', async () => {
    const server = { ips: ['203.0.113.7'], cname: undefined }
    const unknown = await rejection(serviceWith(server, fakeResolver({})).createDomain(account, { domain: `https://${uniqueHost()}` }))
    expect(unknown.message).toBe('The domain is not pointing to our server.')
    const failing: HostResolver = async () => {
      throw Object.assign(new Error('queryA ETIMEOUT'), { code: 'ETIMEOUT' })
    }
    const timedOut = await rejection(serviceWith(server, failing).createDomain(account, { domain: `https://${uniqueHost()}` }))
    expect(timedOut.message).toBe('The domain is not pointing to our server.')
  })

  it('asks DNS nothing when neither SERVER_IPS nor SERVER_CNAME is set', async () => {
    const host = uniqueHost()
    const resolver = fakeResolver({})
    await expect(serviceWith({ ips: [], cname: undefined }, resolver).createDomain(account, { domain: `https://${host}` })).resolves.toMatchObject({ hostname: host })
    expect(resolver.asked).toEqual([])
  })

  it('refuses SERVER_CNAME itself as a branded domain', async () => {
    const service = serviceWith({ ips: [], cname: 'edge.linkwell.example' }, fakeResolver({}))
    const error = await rejection(service.createDomain(account, { domain: 'https://edge.linkwell.example' }))
    expect(error.message).toBe('The field "domain" is the address of this service itself.')
  })
})
