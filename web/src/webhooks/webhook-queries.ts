// The webhook pages' server state: a page of webhooks, one webhook, its delivery log.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import type { paths } from '../api/schema'

export type Webhook = paths['/api/webhooks']['get']['responses'][200]['content']['application/json']['data']['webhooks'][number]
export type Delivery = paths['/api/webhook/{id}/deliveries']['get']['responses'][200]['content']['application/json']['data']['deliveries'][number]
export type WebhookEvent = paths['/api/webhook/add']['post']['requestBody']['content']['application/json']['events'][number]

export const WEBHOOK_PAGE_SIZE = 15
export const DELIVERY_PAGE_SIZE = 20

export function useWebhookPage(page: number) {
  return useQuery({
    queryKey: ['webhooks', 'page', page],
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/webhooks', { params: { query: { page, limit: WEBHOOK_PAGE_SIZE } } }))).data,
  })
}

export function useWebhook(id: number) {
  return useQuery({
    queryKey: ['webhooks', 'one', id],
    queryFn: async () => (await unwrap(api.GET('/api/webhook/{id}', { params: { path: { id } } }))).data,
  })
}

/** The log refreshes itself while a delivery waits for its next try. */
export function useDeliveries(id: number, page: number) {
  return useQuery({
    queryKey: ['webhooks', 'deliveries', id, page],
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/webhook/{id}/deliveries', { params: { path: { id }, query: { page, limit: DELIVERY_PAGE_SIZE } } }))).data,
    refetchInterval: (query) => (query.state.data?.deliveries.some((delivery) => delivery.status === 'pending') ? 2_000 : false),
  })
}
