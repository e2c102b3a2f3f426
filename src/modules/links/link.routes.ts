// Short-link endpoints (decisions §6: Short links): list, read with statistics, add, update, delete.
import type { App } from '../../http/app-instance.js'
import type { LinkService } from './link.service.js'
import type { LinkCardService } from './link-card.service.js'
import type { StatisticsService } from '../statistics/statistics.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import type { VersionedResponseCache } from '../../http/versioned-response-cache.js'
import { aliasDrawingErrorResponses, errorResponses } from '../../http/schemas.js'
import { shortUrl } from '../aliases/alias-namespace.js'
import { toLinkDetailsResponse, toLinkListEntry } from './link.mapper.js'
import { LinkCreateBody, LinkCreatedResponse, LinkDetailsResponse, LinkListQuery, LinkListResponse, LinkUpdateBody, LinkUpdatedResponse, LinkWinnerBody } from './link.schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { filterKeys } from '../tags/tag-names.js'
import { IdParams, MessageResponse } from '../../core/schemas.js'

const tags = ['links']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface LinkRouteDependencies {
  links: LinkService
  /** The single read's `card`. */
  cards: Pick<LinkCardService, 'cardUrlOf'>
  statistics: StatisticsService
  /** The service's base URL, for the addresses answers carry. */
  publicUrl: string
  listCache: VersionedResponseCache
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
}

export function registerLinkRoutes(app: App, { links, cards, statistics, publicUrl, listCache, listEnvelope }: LinkRouteDependencies): void {
  app.get('/api/urls', {
    schema: {
      tags,
      summary: 'List short links (newest first, or by clicks; `q` searches alias, destination and title; `campaign`, `channel`, `domain`, `health` and `tag` narrow the list; several `tag`: all must match)',
      querystring: LinkListQuery,
      response: { 200: LinkListResponse, ...errorResponses },
    },
  }, async (request, reply) => {
    const accountId = accountOf(request).id
    const page = toPageRequest(request.query)
    const { order = 'date', q, campaign, channel, domain, health } = request.query
    const tagKeys = filterKeys(request.query.tag)
    // The query's domain 0 is the main domain, which links store as no domain at all.
    const filter = { order, search: q, campaignId: campaign, channelId: channel, domainId: domain === 0 ? null : domain, health }
    const list = async () => {
      const { rows, total } = await links.listLinks(accountId, page, filter, tagKeys)
      return listEnvelope('urls', page, total, rows.map(({ link, pixelIds, tags }) => toLinkListEntry(link, pixelIds, publicUrl, tags)))
    }
    // A channel's membership is not part of the list version (ADR 012): those lists are read anew.
    if (channel !== undefined) return list()
    // Tags added, taken away or renamed move the version too (migration 024).
    const key = JSON.stringify([accountId, page.page, page.limit, order, q ?? null, campaign ?? null, domain ?? null, tagKeys ?? null, health ?? null])
    return listCache.send(reply, { key, version: await links.listVersion(accountId) }, list)
  })

  app.get('/api/url/:id', {
    schema: { tags, summary: 'A short link with its targeting and statistics', params: IdParams, response: { 200: LinkDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const { link, pixelIds, tags: tagNames } = await links.getLinkOrThrow(accountOf(request).id, request.params.id)
    const item = { itemType: 'link' as const, itemId: link.id }
    const variantClicks = links.hasSplitTest(link) ? await statistics.variantClicks(item) : undefined
    return toLinkDetailsResponse(link, pixelIds, publicUrl, tagNames, await statistics.overall(item), await cards.cardUrlOf(link.id), variantClicks)
  })

  app.post('/api/url/:id/winner', {
    schema: { tags, summary: 'End a split test: the variant at this position (from 0) becomes the link\'s only destination', params: IdParams, body: LinkWinnerBody, response: { 200: LinkUpdatedResponse, ...errorResponses } },
  }, async (request) => {
    const updated = await links.chooseWinner(accountOf(request), request.params.id, request.body.variant)
    return { error: 0 as const, message: 'The variant is now the link\'s destination.', id: updated.id, shorturl: shortUrl(publicUrl, updated.origin, updated.alias) }
  })

  app.post('/api/url/add', {
    schema: { tags, summary: 'Create a short link', body: LinkCreateBody, response: { 201: LinkCreatedResponse, ...aliasDrawingErrorResponses } },
  }, async (request, reply) => {
    const created = await links.createLink(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, id: created.id, shorturl: shortUrl(publicUrl, created.origin, created.alias) })
  })

  app.put('/api/url/:id/update', {
    schema: { tags, summary: 'Change a short link (only the fields given)', params: IdParams, body: LinkUpdateBody, response: { 200: LinkUpdatedResponse, ...errorResponses } },
  }, async (request) => {
    const updated = await links.updateLink(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'Link has been updated successfully.', id: updated.id, shorturl: shortUrl(publicUrl, updated.origin, updated.alias) }
  })

  app.delete('/api/url/:id/delete', {
    schema: { tags, summary: 'Delete a short link (it leaves its channels and campaign)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await links.deleteLink(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Link has been deleted successfully.' }
  })
}
