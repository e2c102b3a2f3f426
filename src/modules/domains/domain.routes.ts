// Branded-domain endpoints (spec: Branded domains): list, add, update redirects, delete.
import type { App, ModuleDeps } from '../../app.js'
import { DOMAIN_TOPIC } from '../../cache/topics.js'
import { accountOf } from '../../http/auth.js'
import { listEnvelope, toPageRequest } from '../../http/list.js'
import { errorResponses, IdParams, MessageResponse, PageQuery } from '../../http/schemas.js'
import { createDomainLinks } from '../links/link-membership.js'
import { resolveHostRecords } from './domain-dns.js'
import { toDomainRecord } from './domain.mapper.js'
import { createDomainRepository } from './domain.repository.js'
import { DomainCreateBody, DomainCreatedResponse, DomainListResponse, DomainUpdateBody } from './domain.schemas.js'
import { createDomainService } from './domain.service.js'

const tags = ['domains']

export function registerDomainRoutes(app: App, { db, config, invalidation }: ModuleDeps): void {
  const domains = createDomainService(createDomainRepository(db), {
    publicUrl: config.publicUrl,
    server: { ips: config.serverIps, cname: config.serverCname },
    resolveHost: resolveHostRecords,
    links: createDomainLinks(db),
    announce: (hostname) => invalidation.publish(DOMAIN_TOPIC, hostname),
  })

  app.get('/api/domains', {
    schema: { tags, summary: 'List branded domains', querystring: PageQuery, response: { 200: DomainListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await domains.listDomains(accountOf(request).id, page)
    return listEnvelope('domains', page, total, rows.map(toDomainRecord))
  })

  app.post('/api/domain/add', {
    schema: {
      tags,
      summary: 'Add a branded domain (it must already point to this server when SERVER_IPS or SERVER_CNAME is set)',
      body: DomainCreateBody,
      response: { 201: DomainCreatedResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const domain = await domains.createDomain(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, id: domain.id })
  })

  app.put('/api/domain/:id/update', {
    schema: { tags, summary: 'Change the redirects of a branded domain', params: IdParams, body: DomainUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await domains.updateDomain(accountOf(request).id, request.params.id, request.body)
    return { error: 0 as const, message: 'Domain has been updated successfully.' }
  })

  app.delete('/api/domain/:id/delete', {
    schema: { tags, summary: 'Delete a branded domain', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await domains.deleteDomain(accountOf(request).id, request.params.id)
    return { error: 0 as const, message: 'Domain has been deleted successfully.' }
  })
}
