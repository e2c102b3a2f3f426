// Channel endpoints (spec: Channels): list, one channel and its items, add, update, delete, assign and remove an item.
import type { App } from '../../http/app-instance.js'
import type { ChannelService } from './channel.service.js'
import { accountOf } from '../../http/auth.js'
import type { ListEnvelope } from '../../http/list.js'
import { errorResponses } from '../../http/schemas.js'
import { toChannelItemRecord, toChannelRecord } from './channel.mapper.js'
import {
  ChannelAssignParams,
  ChannelCreateBody,
  ChannelCreatedResponse,
  ChannelDetailsResponse,
  ChannelItemListResponse,
  ChannelListResponse,
  ChannelUpdateBody,
  ChannelUpdatedResponse,
} from './channel.schemas.js'
import { toPageRequest } from '../../core/paging.js'
import { IdParams, MessageResponse, PageQuery } from '../../core/schemas.js'

const tags = ['channels']

/** What the routes use, handed over by app.ts (no route module reaches for the whole composition root). */
export interface ChannelRouteDependencies {
  channels: ChannelService
  /** The server's list envelope (its `error` as LIST_ERROR_FORMAT says). */
  listEnvelope: ListEnvelope
}

export function registerChannelRoutes(app: App, { channels, listEnvelope }: ChannelRouteDependencies): void {
  app.get('/api/channels', {
    schema: { tags, summary: 'List channels', querystring: PageQuery, response: { 200: ChannelListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await channels.listChannels(accountOf(request).id, page)
    return listEnvelope('channels', page, total, rows.map(toChannelRecord))
  })

  app.get('/api/channel/:id', {
    schema: { tags, summary: 'List the items of a channel', params: IdParams, querystring: PageQuery, response: { 200: ChannelItemListResponse, ...errorResponses } },
  }, async (request) => {
    const page = toPageRequest(request.query)
    const { rows, total } = await channels.listItems(accountOf(request).id, request.params.id, page)
    return listEnvelope('items', page, total, rows.map(toChannelItemRecord))
  })

  app.get('/api/channel/:id/details', {
    schema: { tags, summary: 'Read one channel (name, description, color, starred)', params: IdParams, response: { 200: ChannelDetailsResponse, ...errorResponses } },
  }, async (request) => {
    const channel = await channels.getChannelOrThrow(accountOf(request).id, request.params.id)
    return { error: 0 as const, data: toChannelRecord(channel) }
  })

  app.post('/api/channel/add', {
    schema: { tags, summary: 'Create a channel', body: ChannelCreateBody, response: { 201: ChannelCreatedResponse, ...errorResponses } },
  }, async (request, reply) => {
    const channel = await channels.createChannel(accountOf(request), request.body)
    return reply.code(201).send({ error: 0 as const, ...toChannelRecord(channel) })
  })

  app.put('/api/channel/:id/update', {
    schema: { tags, summary: 'Update a channel', params: IdParams, body: ChannelUpdateBody, response: { 200: ChannelUpdatedResponse, ...errorResponses } },
  }, async (request) => {
    const channel = await channels.updateChannel(accountOf(request), request.params.id, request.body)
    return { error: 0 as const, message: 'Channel has been updated successfully.', ...toChannelRecord(channel) }
  })

  app.delete('/api/channel/:id/delete', {
    schema: { tags, summary: 'Delete a channel (its items are unassigned)', params: IdParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    await channels.deleteChannel(accountOf(request), request.params.id)
    return { error: 0 as const, message: 'Channel has been deleted successfully.' }
  })

  app.post('/api/channel/:channelid/assign/:type/:itemid', {
    schema: { tags, summary: 'Add a short link, bio page or QR code to a channel', params: ChannelAssignParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    const { channelid, type, itemid } = request.params
    await channels.assignItem(accountOf(request), channelid, type, itemid)
    return { error: 0 as const, message: 'Item successfully added to the channel.' }
  })

  app.delete('/api/channel/:channelid/assign/:type/:itemid', {
    schema: { tags, summary: 'Remove a short link, bio page or QR code from a channel (the item itself stays)', params: ChannelAssignParams, response: { 200: MessageResponse, ...errorResponses } },
  }, async (request) => {
    const { channelid, type, itemid } = request.params
    await channels.removeItem(accountOf(request), channelid, type, itemid)
    return { error: 0 as const, message: 'Item successfully removed from the channel.' }
  })
}
