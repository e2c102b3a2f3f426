// The webhook pages' server state: a page of webhooks, one webhook, its delivery log; adding,
// changing, testing, switching and deleting a webhook, and retrying a delivery.
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api, unwrap } from '../api/client'
import { queryKeys } from '../api/query-keys'
import type { paths } from '../api/schema'
import { useWrite } from '../api/write-queries'

export type Webhook = paths['/api/webhooks']['get']['responses'][200]['content']['application/json']['data']['webhooks'][number]
export type Delivery = paths['/api/webhook/{id}/deliveries']['get']['responses'][200]['content']['application/json']['data']['deliveries'][number]
export type WebhookEvent = paths['/api/webhook/add']['post']['requestBody']['content']['application/json']['events'][number]

export const WEBHOOK_PAGE_SIZE = 15
export const DELIVERY_PAGE_SIZE = 20

export function useWebhookPage(page: number) {
  return useQuery({
    queryKey: queryKeys.webhooks.page(page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/webhooks', { params: { query: { page, limit: WEBHOOK_PAGE_SIZE } } }))).data,
  })
}

export function useWebhook(id: number) {
  return useQuery({
    queryKey: queryKeys.webhooks.one(id),
    queryFn: async () => (await unwrap(api.GET('/api/webhook/{id}', { params: { path: { id } } }))).data,
  })
}

/** The log refreshes itself while a delivery waits for its next try. */
export function useDeliveries(id: number, page: number) {
  return useQuery({
    queryKey: queryKeys.webhooks.deliveries(id, page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await unwrap(api.GET('/api/webhook/{id}/deliveries', { params: { path: { id }, query: { page, limit: DELIVERY_PAGE_SIZE } } }))).data,
    refetchInterval: (query) => (query.state.data?.deliveries.some((delivery) => delivery.status === 'pending') ? 2_000 : false),
  })
}

type WebhookBody = paths['/api/webhook/add']['post']['requestBody']['content']['application/json']
type WebhookChange = NonNullable<paths['/api/webhook/{id}/update']['put']['requestBody']>['content']['application/json']
/** What a webhook's buttons do: send a test event, switch it off or on. */
export type WebhookAction = 'test' | 'off' | 'on'

// Every write refreshes every webhook query: the list, the webhook and its delivery log.

/** Adds a webhook; answers it with its signing secret, shown once. */
export function useCreateWebhook() {
  return useWrite({ send: (body: WebhookBody) => unwrap(api.POST('/api/webhook/add', { body })), refreshes: [queryKeys.webhooks.all] })
}

export function useUpdateWebhook() {
  return useWrite({
    send: ({ id, body }: { id: number; body: WebhookChange }) => unwrap(api.PUT('/api/webhook/{id}/update', { params: { path: { id } }, body })),
    refreshes: [queryKeys.webhooks.all],
  })
}

export function useWebhookAction() {
  return useWrite({
    send: ({ id, action }: { id: number; action: WebhookAction }) => action === 'test'
      ? unwrap(api.POST('/api/webhook/{id}/test', { params: { path: { id } } }))
      : unwrap(api.PUT('/api/webhook/{id}/update', { params: { path: { id } }, body: { enabled: action === 'on' } })),
    refreshes: [queryKeys.webhooks.all],
  })
}

export function useDeleteWebhook() {
  return useWrite({ send: (id: number) => unwrap(api.DELETE('/api/webhook/{id}/delete', { params: { path: { id } } })), refreshes: [queryKeys.webhooks.all] })
}

/** Sends a delivery again now. */
export function useRetryDelivery() {
  return useWrite({ send: (id: number) => unwrap(api.POST('/api/delivery/{id}/retry', { params: { path: { id } } })), refreshes: [queryKeys.webhooks.all] })
}
