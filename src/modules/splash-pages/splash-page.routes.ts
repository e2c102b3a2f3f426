// Custom splash page endpoints (spec: Custom splash pages; decisions §6 adds create, update and delete).
import type { App } from '../../http/app-instance.js'
import type { SplashPageService } from './splash-page.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toSplashPageDetails, toSplashPageRecord } from './splash-page.mapper.js'
import { SplashPageCreateBody, SplashPageCreatedResponse, SplashPageDetailsResponse, SplashPageListResponse, SplashPageUpdateBody } from './splash-page.schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'

const tags = ['splash pages']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface SplashPageRouteDependencies {
  splashPages: SplashPageService
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
}

export function registerSplashPageRoutes(app: App, { splashPages, listEnvelope }: SplashPageRouteDependencies): void {
  app.get('/api/splash', {
    schema: { tags, summary: 'List custom splash pages', querystring: PageQuery, response: { 200: SplashPageListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await splashPages.listSplashPages(accountOf(request).id, page)
    return listEnvelope('splash', page, total, rows.map(toSplashPageRecord))
  })

  app.get('/api/splash/:id', {
    schema: { tags, summary: 'Get one custom splash page with its fields', params: IdParams, response: { 200: SplashPageDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const page = await splashPages.getSplashPageOrThrow(accountOf(request).id, request.params.id)
    return { error: 0 as const, data: toSplashPageDetails(page) }
  })

  app.post('/api/splash/add', {
    schema: { tags, summary: 'Create a custom splash page', body: SplashPageCreateBody, response: { 201: SplashPageCreatedResponse, ...errorResponses } },
  }, async (request, reply) => {
    const page = await splashPages.createSplashPage(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, id: page.id })
  })

  app.put('/api/splash/:id/update', {
    schema: { tags, summary: 'Update a custom splash page', params: IdParams, body: SplashPageUpdateBody, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await splashPages.updateSplashPage(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'Splash page has been updated successfully.' }
  })

  app.delete('/api/splash/:id/delete', {
    schema: { tags, summary: 'Delete a custom splash page', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await splashPages.deleteSplashPage(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Splash page has been deleted successfully.' }
  })
}
