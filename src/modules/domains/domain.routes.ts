// Branded-domain endpoints (spec: Branded domains): list, add, update redirects, delete; plus the
// dashboard's single read, the DNS records to create and a DNS check before adding.
import type { App } from '../../http/app-instance.js'
import type { DomainService } from './domain.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { DomainCreateBody, DomainCreatedResponse, DomainDnsQuery, DomainDnsResponse, DomainListResponse, DomainResponse, DomainSetupResponse, DomainUpdateBody } from './domain.schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'

const tags = ['domains']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface DomainRouteDependencies {
  domains: DomainService
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
}

export function registerDomainRoutes(app: App, { domains, listEnvelope }: DomainRouteDependencies): void {
  app.get('/api/domains', {
    schema: { tags, summary: 'List branded domains', querystring: PageQuery, response: { 200: DomainListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await domains.listDomains(accountOf(request).id, page)
    return listEnvelope('domains', page, total, await domains.recordsOf(rows))
  })

  app.get('/api/domains/setup', {
    schema: { tags, summary: 'The DNS records a branded domain needs (SERVER_IPS, SERVER_CNAME); `checked` false: no DNS check', response: { 200: DomainSetupResponse, ...errorResponses } },
  }, async () => ({ error: 0 as const, data: domains.setup() }))

  app.get('/api/domains/dns', {
    schema: { tags, summary: 'What a domain resolves to now, and whether adding it would pass the DNS check', querystring: DomainDnsQuery, response: { 200: DomainDnsResponse, ...errorResponses } },
  }, async (request) => ({ error: 0 as const, data: await domains.checkDns(request.query.domain) }))

  app.get('/api/domain/:id', {
    schema: { tags, summary: 'Get one branded domain', params: IdParams, response: { 200: DomainResponse, ...errorResponses } },
  }, async (request) => ({ error: 0 as const, data: await domains.getRecord(accountOf(request).id, request.params.id) }))

  app.post('/api/domain/:id/verify', {
    schema: {
      tags,
      summary: 'Check now whether the workspace controls the domain (the TXT record _linkwell.<domain>, ADR 031); answers the domain with what the check found',
      params: IdParams,
      response: { 200: DomainResponse, ...errorResponses },
    },
  }, async (request) => ({ error: 0 as const, data: await domains.verifyNow(accountOf(request), request.params.id) }))

  app.post('/api/domain/add', {
    schema: {
      tags,
      summary: 'Add a branded domain (it must already point to this server when SERVER_IPS or SERVER_CNAME is set)',
      body: DomainCreateBody,
      response: { 201: DomainCreatedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const domain = await domains.createDomain(accountOf(request), request.body)
    const { id, status, verification, certificate } = (await domains.recordsOf([domain]))[0]!
    return reply.code(201).send({ error: 0 as const, id, status, verification, certificate })
  })

  app.put('/api/domain/:id/update', {
    schema: { tags, summary: 'Change the redirects of a branded domain', params: IdParams, body: DomainUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await domains.updateDomain(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'Domain has been updated successfully.' }
  })

  app.delete('/api/domain/:id/delete', {
    schema: { tags, summary: 'Delete a branded domain', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await domains.deleteDomain(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Domain has been deleted successfully.' }
  })
}
