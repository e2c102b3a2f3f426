// Routes of this area of the dashboard; the router adds them under the signed-in shell.
import type { RouteObject } from 'react-router'
import { lazyPage } from '../shell/lazy-page'

export const webhookRoutes: RouteObject[] = [
  { path: 'webhooks', lazy: lazyPage(() => import('./WebhooksPage'), 'WebhooksPage') },
  { path: 'webhooks/:id', lazy: lazyPage(() => import('./WebhookDetailPage'), 'WebhookDetailPage') },
]
